import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import { type TempDir, tempDir } from '../../../test/temp-mirror';
import {
  BULK_WAL_CHECKPOINT_FRAMES,
  beginBulkLoad,
  catchUpBulkLoad,
  finishBulkLoad,
  listPeople,
  listPets,
  type Mirror,
  openMirror,
  searchIndexWatermark,
  setLocalEdit,
  storeServerPage,
  storeServerRecord,
} from './index';
import { BIG_SEARCH } from './search-hits';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

const names = (search: string) =>
  listPets(mirror.db, { search, sort: 'name' }).items.map((item) => item.record.name);

/** FTS5's own check that the index holds exactly the rows and values of its content table. */
function indexIsExact(table: 'pet' | 'person'): boolean {
  try {
    for (const index of table === 'pet' ? ['pet_fts', 'pet_words', 'pet_starts'] : ['person_fts']) {
      mirror.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
    }
    return true;
  } catch {
    return false;
  }
}

describe('search index deferred during a bulk load', () => {
  it('finds rows by substring before and after they are indexed, and ends with an exact index', async () => {
    const biscuit = makePet({ name: 'Biscuit', breed: ['Beagle'], microchip_id: '985141000123456' });
    storeServerPage(mirror.db, 'pet', [biscuit], 'listed');
    beginBulkLoad(mirror.db, 'pet');
    const bulk = Array.from({ length: 25 }, (_, i) =>
      makePet({ name: `Bulk ${i} Pumpkin`, description: `Loves 100% of walks_${i}.` }),
    );
    storeServerPage(mirror.db, 'pet', bulk, 'listed');
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Mittens', breed: ['Siamese'] })], 'listed');

    expect(searchIndexWatermark(mirror.db, 'pet')).toBeDefined();
    expect(names('iscu')).toEqual(['Biscuit']);
    expect(names('SIAM')).toEqual(['Mittens']);
    expect(names('umpk')).toHaveLength(25);
    expect(names('100%')).toHaveLength(25);
    expect(names('walks_7')).toEqual(['Bulk 7 Pumpkin']);
    // LIKE wildcards in what the user typed are plain characters.
    expect(names('wa%ks')).toEqual([]);
    expect(names('umpk 1000123')).toEqual([]);

    // Edits of indexed and not yet indexed rows while the index is deferred.
    storeServerRecord(
      mirror.db,
      'pet',
      { ...biscuit, name: 'Biscotti', updated_at: '2027-01-01T00:00:00Z' },
      'listed',
    );
    const first = bulk[0];
    if (!first) throw new Error('no pet');
    setLocalEdit(mirror.db, 'pet', first.id, { name: 'Renamed Locally' });
    expect(names('iscot')).toEqual(['Biscotti']);
    expect(names('iscuit')).toEqual([]);
    expect(names('renamed')).toEqual(['Renamed Locally']);

    expect(catchUpBulkLoad(mirror.db, 'pet', 10)).toBe(false);
    expect(names('umpk')).toHaveLength(24);
    await finishBulkLoad(mirror.db, 'pet');
    expect(searchIndexWatermark(mirror.db, 'pet')).toBeUndefined();
    expect(indexIsExact('pet')).toBe(true);
    expect(names('umpk')).toHaveLength(24);
    expect(names('renamed')).toEqual(['Renamed Locally']);
    expect(names('SIAM')).toEqual(['Mittens']);
    expect(names('iscot')).toEqual(['Biscotti']);

    // Back to per-row upkeep once caught up.
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Latecomer' })], 'listed');
    expect(names('tecom')).toEqual(['Latecomer']);
    expect(indexIsExact('pet')).toBe(true);
  });

  it('answers a search matching more pets than BIG_SEARCH while a bulk load runs (it pages from the name index)', () => {
    beginBulkLoad(mirror.db, 'pet');
    for (let page = 0; page * 100 <= BIG_SEARCH; page++) {
      const pets = Array.from({ length: 100 }, (_, i) => makePet({ name: `Rex ${page}-${i}` }));
      storeServerPage(mirror.db, 'pet', pets, 'listed');
    }
    const found = listPets(mirror.db, { search: 'Rex', limit: 50 });
    expect(found.total).toBeGreaterThan(BIG_SEARCH);
    expect(found.items).toHaveLength(50);
    // A short word beside it reads every name too (the start of a word inside the name).
    expect(listPets(mirror.db, { search: 'Rex 1', limit: 50 }).total).toBeGreaterThan(0);
  });

  it('defers people apart from pets, and a second deferral keeps the first watermark', async () => {
    beginBulkLoad(mirror.db, 'person');
    storeServerPage(
      mirror.db,
      'person',
      [makePerson({ name: 'Grace Hopper', email: 'grace@navy.example', phone: '555-0100' })],
      'listed',
    );
    const watermark = searchIndexWatermark(mirror.db, 'person');
    beginBulkLoad(mirror.db, 'person');
    expect(searchIndexWatermark(mirror.db, 'person')).toBe(watermark);
    expect(searchIndexWatermark(mirror.db, 'pet')).toBeUndefined();
    expect(listPeople(mirror.db, { search: 'navy' }).total).toBe(1);
    expect(listPeople(mirror.db, { search: '0100' }).total).toBe(1);
    await finishBulkLoad(mirror.db, 'person');
    expect(indexIsExact('person')).toBe(true);
    expect(listPeople(mirror.db, { search: 'navy' }).total).toBe(1);
  });
});

describe('a file mirror finishes its bulk load on a worker thread', () => {
  let folder: TempDir;
  let file: Mirror;
  beforeEach(async () => {
    folder = tempDir('sd-bulk-worker-');
    file = await openMirror({ filename: path.join(folder.dir, 'mirror.sqlite') });
  });
  afterEach(async () => {
    await file.close();
    folder.remove();
  });

  const listIndexes = () =>
    file.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pet_list' ORDER BY name")
      .pluck()
      .all() as string[];
  const droppedIndexes = () => {
    const json = file.db
      .prepare("SELECT json FROM sync_state WHERE key = 'bulk-load-indexes:pet'")
      .pluck()
      .get();
    return typeof json === 'string'
      ? (JSON.parse(json) as Array<{ name: string }>).map((index) => index.name)
      : [];
  };
  const fileNames = (search: string) =>
    listPets(file.db, { search, sort: 'name' }).items.map((item) => item.record.name);
  const found = (search: string) => listPets(file.db, { search }).total;
  const fileIndexIsExact = () => {
    for (const index of ['pet_fts', 'pet_words', 'pet_starts']) {
      file.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
    }
    return true;
  };

  /** A bulk load of `count` pets named `Bulk <i> Pumpkin` (several catch-up steps), left to finish. */
  function loadPets(count: number) {
    beginBulkLoad(file.db, 'pet');
    const pets = Array.from({ length: count }, (_, i) => makePet({ name: `Bulk ${i} Pumpkin` }));
    for (let at = 0; at < pets.length; at += 500) {
      storeServerPage(file.db, 'pet', pets.slice(at, at + 500), 'listed');
    }
    return pets;
  }

  it('keeps only the indexes on clustered keys of the pet table while it loads, and builds the rest again', async () => {
    const petIndexes = () =>
      file.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pet' ORDER BY name")
        .pluck()
        .all() as string[];
    const before = petIndexes();
    loadPets(600);
    // The unique id index, the pending flag (empty during a first sync) and presence with the server's stamp (in
    // list order) stay; the lookups by shelter id and microchip, whose keys arrive in random order, wait.
    expect(petIndexes()).toEqual(['pet_pending', 'pet_presence_server_updated', 'sqlite_autoindex_pet_1']);
    await finishBulkLoad(file.db, 'pet');
    expect(petIndexes()).toEqual(before);
  });

  it("drops the adopted pets' indexes while it loads and builds them again; adoptions read the same meanwhile", async () => {
    const adoptionIndexes = () =>
      file.db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pet_adoption' ORDER BY name",
        )
        .pluck()
        .all() as string[];
    const adoptedBy = (adopter: string) =>
      file.db.prepare('SELECT COUNT(*) FROM pet_adoption WHERE adopted_by = ?').pluck().get(adopter);
    const adoptionsOn = () =>
      file.db
        .prepare(
          `SELECT adopted_on, COUNT(*) AS n FROM pet_adoption WHERE adopted_on >= '2026-03-01'
           GROUP BY adopted_on ORDER BY adopted_on`,
        )
        .all();
    const countedOn = () =>
      file.db
        .prepare(
          "SELECT adopted_on, n FROM pet_adoption_count WHERE adopted_on >= '2026-03-01' ORDER BY adopted_on",
        )
        .all();
    const plan = () =>
      file.db
        .prepare('EXPLAIN QUERY PLAN SELECT seq FROM pet_adoption WHERE adopted_by = ?')
        .all('x')
        .map((row) => (row as { detail: string }).detail)
        .join(' ');
    const before = adoptionIndexes();
    expect(before).toEqual(['pet_adoption_by', 'pet_adoption_on']);
    expect(plan()).toContain('pet_adoption_by');

    beginBulkLoad(file.db, 'pet');
    const pets = Array.from({ length: 600 }, (_, i) =>
      makePet({
        name: `Bulk ${i}`,
        ...(i % 3 === 0 && {
          status: 'adopted',
          adopted_on: `2026-0${1 + (i % 5)}-15`,
          adopted_by: i % 2 === 0 ? 'adopter-a' : 'adopter-b',
        }),
      }),
    );
    for (let at = 0; at < pets.length; at += 100) {
      storeServerPage(file.db, 'pet', pets.slice(at, at + 100), 'listed');
    }
    expect(adoptionIndexes()).toEqual([]);
    const whileLoading = { a: adoptedBy('adopter-a'), b: adoptedBy('adopter-b'), on: adoptionsOn() };
    expect(whileLoading.a).toBe(100);
    expect(whileLoading.b).toBe(100);
    expect(whileLoading.on).toEqual([
      { adopted_on: '2026-03-15', n: 40 },
      { adopted_on: '2026-04-15', n: 40 },
      { adopted_on: '2026-05-15', n: 40 },
    ]);

    await finishBulkLoad(file.db, 'pet');
    expect(adoptionIndexes()).toEqual(before);
    expect(plan()).toContain('pet_adoption_by');
    expect({ a: adoptedBy('adopter-a'), b: adoptedBy('adopter-b'), on: adoptionsOn() }).toEqual(whileLoading);
    // The dashboard's adoption counts of the load's pets are taken at its end (see the dashboard's tests).
    expect(countedOn()).toEqual(whileLoading.on);
  });

  it('answers searches and list pages between its steps, keeps a local edit made meanwhile, ends exact', async () => {
    const indexesBefore = listIndexes();
    const pets = loadPets(4000);
    const edited = pets[3999];
    if (!edited) throw new Error('no pet');
    const dropped = droppedIndexes();
    expect(dropped.length).toBeGreaterThan(0);
    expect(listIndexes()).toEqual(indexesBefore.filter((name) => !dropped.includes(name)));
    const steps: string[] = [];
    let renamed = 0;
    await finishBulkLoad(file.db, 'pet', undefined, {
      onStep: (step) => {
        steps.push(step);
        // Every pet is found whether the worker has indexed it yet or not, and pages sort the same.
        expect(found('umpk')).toBe(4000 - renamed);
        expect(found('renamed')).toBe(renamed);
        expect(listPets(file.db, { sort: 'name', limit: 1 }).items[0]?.record.name).toBe('Bulk 0 Pumpkin');
        // A local edit on this thread while the worker finishes (of a pet above its watermark at first).
        if (renamed === 0) {
          setLocalEdit(file.db, 'pet', edited.id, { name: 'Renamed Meanwhile' });
          renamed = 1;
        }
      },
    });
    expect(steps).toContain('rows');
    expect(steps.filter((step) => step === 'index')).toHaveLength(dropped.length);
    expect(searchIndexWatermark(file.db, 'pet')).toBeUndefined();
    expect(listIndexes()).toEqual(indexesBefore);
    expect(fileIndexIsExact()).toBe(true);
    expect(fileNames('renamed')).toEqual(['Renamed Meanwhile']);
    expect(found('umpk')).toBe(3999);
  });

  it('reports the rows it has indexed, from none to all of those the load added, on the worker and on this thread', async () => {
    storeServerPage(file.db, 'pet', [makePet({ name: 'Before The Load' })], 'listed');
    loadPets(3000);
    const offThread: Array<{ indexed: number; total: number }> = [];
    await finishBulkLoad(file.db, 'pet', undefined, { onProgress: (progress) => offThread.push(progress) });
    loadPets(1200);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onThisThread: Array<{ indexed: number; total: number }> = [];
    try {
      await finishBulkLoad(file.db, 'pet', undefined, {
        driver: path.join(folder.dir, 'no-such-driver.js'),
        onProgress: (progress) => onThisThread.push(progress),
      });
    } finally {
      errors.mockRestore();
    }
    for (const [reports, rows] of [
      [offThread, 3000],
      [onThisThread, 1200],
    ] as const) {
      expect(reports[0]).toEqual({ indexed: 0, total: rows });
      expect(reports.at(-1)).toEqual({ indexed: rows, total: rows });
      // Several steps in between, never going back.
      expect(reports.filter((report) => report.indexed > 0 && report.indexed < rows).length).toBeGreaterThan(
        0,
      );
      const indexed = reports.map((report) => report.indexed);
      expect(indexed).toEqual([...indexed].sort((a, b) => a - b));
    }
  });

  it('loses no index when stopped during the index builds, and the next finish completes them', async () => {
    const indexesBefore = listIndexes();
    loadPets(1500);
    const controller = new AbortController();
    await finishBulkLoad(file.db, 'pet', controller.signal, {
      // Stops the worker as it goes on to the next index (its open step rolls back).
      onStep: (step) => {
        if (step === 'index') controller.abort();
      },
    });
    // Every index is either built or still listed to be built, whatever the stop cut off.
    const present = listIndexes();
    const dropped = droppedIndexes();
    expect(indexesBefore.every((name) => present.includes(name) || dropped.includes(name))).toBe(true);
    expect(dropped.length).toBeGreaterThan(0);
    expect(searchIndexWatermark(file.db, 'pet')).toBeDefined();
    // This thread can write again at once: the stopped worker holds no lock.
    storeServerPage(file.db, 'pet', [makePet({ name: 'Latecomer' })], 'listed');

    await finishBulkLoad(file.db, 'pet');
    expect(listIndexes()).toEqual(indexesBefore);
    expect(droppedIndexes()).toEqual([]);
    expect(searchIndexWatermark(file.db, 'pet')).toBeUndefined();
    expect(fileIndexIsExact()).toBe(true);
    expect(found('umpk')).toBe(1500);
    expect(fileNames('tecom')).toEqual(['Latecomer']);
  });

  it('finishes on this thread when the worker cannot load the driver', async () => {
    const indexesBefore = listIndexes();
    loadPets(1200);
    // Beginning a load and storing pages outside a pull starts no checkpoint worker (nothing would stop it).
    expect(file.db.pragma('wal_autocheckpoint', { simple: true })).toBe(BULK_WAL_CHECKPOINT_FRAMES);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const steps: string[] = [];
    try {
      await finishBulkLoad(file.db, 'pet', undefined, {
        driver: path.join(folder.dir, 'no-such-driver.js'),
        onStep: (step) => steps.push(step),
      });
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('finishes on the main thread'));
    } finally {
      errors.mockRestore();
    }
    expect(steps).toEqual([]);
    expect(searchIndexWatermark(file.db, 'pet')).toBeUndefined();
    expect(listIndexes()).toEqual(indexesBefore);
    expect(fileIndexIsExact()).toBe(true);
    expect(found('umpk')).toBe(1200);
  });

  it('leaves the finish to the next sync when another writer keeps the database, without blocking this thread', async () => {
    loadPets(1200);
    const other = new Database(path.join(folder.dir, 'mirror.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubEnv('SHELTER_DESK_WRITE_WAIT_MS', '300');
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    try {
      await finishBulkLoad(file.db, 'pet');
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('waits for the next sync'));
      expect(errors).not.toHaveBeenCalledWith(expect.stringContaining('finishes on the main thread'));
    } finally {
      clearInterval(ticker);
      vi.unstubAllEnvs();
      errors.mockRestore();
      other.exec('ROLLBACK');
      other.close();
    }
    // This thread's event loop went on turning while the worker waited.
    expect(ticks).toBeGreaterThan(10);
    expect(searchIndexWatermark(file.db, 'pet')).toBeDefined();
    expect(found('umpk')).toBe(1200);

    await finishBulkLoad(file.db, 'pet');
    expect(searchIndexWatermark(file.db, 'pet')).toBeUndefined();
    expect(fileIndexIsExact()).toBe(true);
  });

  it('keeps every local edit this thread makes while the worker holds the write lock', async () => {
    const pets = loadPets(3000);
    let edits = 0;
    let finished = false;
    const finishing = finishBulkLoad(file.db, 'pet').finally(() => {
      finished = true;
    });
    while (!finished && edits < pets.length) {
      const pet = pets[edits];
      if (pet) setLocalEdit(file.db, 'pet', pet.id, { name: `Edited ${edits}` });
      edits += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await finishing;
    expect(edits).toBeGreaterThan(0);
    expect(found('edited')).toBe(edits);
    expect(found('umpk')).toBe(3000 - edits);
    expect(fileIndexIsExact()).toBe(true);
  });
});
