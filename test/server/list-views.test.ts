import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openServerContext, type ServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import type { PetListQuery } from '../../shared/contract';
import { newPet, tempDataDir } from './harness';

const SPECIES = ['dog', 'cat', 'rabbit'] as const;
const STATUSES = ['available', 'hold', 'adopted', 'Isolation Ward', 'isolation-private'] as const;

/** The list as the SQL it replaced computes it: the reference the in-memory views must match exactly. */
function referencePage(app: ServerContext, query: PetListQuery): { ids: string[]; total: number } {
  const where = ['is_public = 1'];
  const params: unknown[] = [];
  if (query.species) {
    where.push('species = ?');
    params.push(query.species);
  }
  if (query.status) {
    where.push('status_label = ? COLLATE NOCASE');
    params.push(query.status.trim());
  }
  if (query.updated_since) {
    where.push('updated_at >= ?');
    params.push(Math.ceil(Date.parse(query.updated_since)));
  }
  const sql = `FROM pets WHERE ${where.join(' AND ')}`;
  const ids = app.sqlite
    .prepare(`SELECT id ${sql} ORDER BY updated_at LIMIT ? OFFSET ?`)
    .pluck()
    .all(...params, query.limit, query.offset) as string[];
  const total = app.sqlite
    .prepare(`SELECT COUNT(*) ${sql}`)
    .pluck()
    .get(...params) as number;
  return { ids, total };
}

function viewPage(app: ServerContext, query: PetListQuery): { ids: string[]; total: number } {
  const page = app.pets.list(query);
  return {
    ids: app.pets.bodiesOf(page).map((item) => (JSON.parse(item) as { id: string }).id),
    total: page.total,
  };
}

const write = fc.oneof(
  fc.record({ kind: fc.constant('patch' as const), pet: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant('species' as const), pet: fc.nat(), species: fc.constantFrom(...SPECIES) }),
  fc.record({ kind: fc.constant('hide' as const), pet: fc.nat(), show: fc.boolean() }),
  fc.record({ kind: fc.constant('create' as const), species: fc.constantFrom(...SPECIES) }),
  fc.record({ kind: fc.constant('delete' as const), pet: fc.nat() }),
  fc.record({ kind: fc.constant('status-visibility' as const), isPublic: fc.boolean() }),
  fc.record({ kind: fc.constant('fees' as const), amount: fc.integer({ min: 1, max: 300 }) }),
);

describe('list views', () => {
  it('match the SQL list exactly (order, total, every filter and offset) through random writes', async () => {
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const app = await openServerContext(':memory:', () => (clock += 7));
    const staff = createStaffOperations(app);
    staff.setCustomStatus({ label: 'Isolation Ward', isPublic: true });
    staff.setCustomStatus({ label: 'isolation-private', isPublic: false });
    for (let i = 0; i < 120; i++) {
      app.sqlite.transaction(() =>
        app.pets.create(
          newPet({ name: `Pet ${i}`, species: SPECIES[i % 3], status: STATUSES[i % 4] }) as never,
        ),
      )();
    }
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 40 }), async (writes) => {
        const ids = app.sqlite
          .prepare('SELECT id FROM pets WHERE deleted_at IS NULL ORDER BY seq')
          .pluck()
          .all() as string[];
        for (const step of writes) {
          const pick = () => app.pets.get(ids[(step as { pet: number }).pet % ids.length] as string);
          app.sqlite.transaction(() => {
            if (step.kind === 'create') app.pets.create(newPet({ species: step.species }) as never);
            else if (step.kind === 'status-visibility') {
              staff.setCustomStatus({
                id: app.meta.activeStatusByLabelMatch('Isolation Ward')?.id,
                label: 'Isolation Ward',
                isPublic: step.isPublic,
              });
            } else if (step.kind === 'fees') {
              staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: step.amount }]);
            } else {
              const pet = pick();
              if (!pet) return;
              if (step.kind === 'patch') app.pets.update(pet, { status: step.status });
              else if (step.kind === 'species') app.pets.writeColumns(pet, { species: step.species });
              else if (step.kind === 'hide') app.pets.update(pet, { show_public: step.show });
              else if (step.kind === 'delete') staff.deletePet(pet.id);
            }
          })();
        }
        await app.pets.restamps.settled();
        const stamps = app.sqlite
          .prepare('SELECT updated_at FROM pets ORDER BY updated_at')
          .pluck()
          .all() as number[];
        const since = new Date(stamps[Math.floor(stamps.length / 2)] as number).toISOString();
        for (const species of [undefined, ...SPECIES]) {
          for (const status of [undefined, 'available', 'ISOLATION WARD', 'hold ']) {
            for (const updated_since of [undefined, since]) {
              for (const [offset, limit] of [
                [0, 100],
                [13, 7],
                [60, 100],
                [500, 20],
              ] as const) {
                const query = { species, status, updated_since, offset, limit } as PetListQuery;
                expect(viewPage(app, query)).toEqual(referencePage(app, query));
              }
            }
          }
        }
        // Every stored response is the pet as it is now rendered.
        const stale = app.sqlite
          .prepare(
            `SELECT COUNT(*) FROM pets p LEFT JOIN pet_bodies b ON b.seq = p.seq
             WHERE p.deleted_at IS NULL AND (b.seq IS NULL OR json_extract(b.body, '$.updated_at') IS NULL)`,
          )
          .pluck()
          .get();
        expect(stale).toBe(0);
      }),
      { numRuns: 40, seed: 20_261_124 },
    );
    await app.close();
  }, 60_000);

  it('warm in steps after a start while pets change, the lists answered from SQL until then, the same pages', async () => {
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const app = await openServerContext(':memory:', () => (clock += 3));
    const staff = createStaffOperations(app);
    app.sqlite.transaction(() => {
      for (let i = 0; i < 1700; i++) {
        app.pets.create(
          newPet({ name: `Pet ${i}`, species: SPECIES[i % 3], status: STATUSES[i % 3] }) as never,
        );
      }
    })();
    const ids = app.sqlite.prepare('SELECT id FROM pets ORDER BY seq').pluck().all() as string[];
    const pet = (index: number) =>
      app.pets.get(ids[index] as string) as NonNullable<ReturnType<typeof app.pets.get>>;
    const stamps = app.sqlite
      .prepare('SELECT updated_at FROM pets ORDER BY updated_at')
      .pluck()
      .all() as number[];
    const since = new Date(stamps[900] as number).toISOString();
    const queries = [undefined, 'dog'].flatMap((species) =>
      [undefined, 'HOLD'].flatMap((status) =>
        [undefined, since].flatMap((updated_since) =>
          [0, 450].map((offset) => ({ species, status, updated_since, offset, limit: 100 }) as PetListQuery),
        ),
      ),
    );
    const facets = app.pets.facets;
    facets.warming = true;
    let steps = 0;
    while (!facets.warmStep(0)) {
      steps++;
      // Pets the load has read (oldest stamps) and pets still ahead of it change, one leaves the list, one is new.
      app.sqlite.transaction(() => {
        app.pets.update(pet(steps), { status: 'hold' });
        app.pets.update(pet(ids.length - steps), { name: `Late ${steps}` });
        app.pets.update(pet(100 + steps), { show_public: false });
        app.pets.create(newPet({ species: 'dog', status: 'hold' }) as never);
      })();
      // Re-rendering every dog in the background, its chunks between the steps.
      if (steps === 1) staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 50 }]);
      await new Promise((resolve) => setImmediate(resolve));
      for (const query of queries) expect(viewPage(app, query)).toEqual(referencePage(app, query));
    }
    expect(steps).toBeGreaterThan(2);
    facets.warming = false;
    // Warm: the views answer, and follow further writes.
    for (const query of queries) expect(viewPage(app, query)).toEqual(referencePage(app, query));
    await app.pets.restamps.settled();
    app.sqlite.transaction(() => app.pets.update(pet(7), { status: 'hold' }))();
    for (const query of queries) expect(viewPage(app, query)).toEqual(referencePage(app, query));
    await app.close();
  });

  it('warm with the pets stamped 0 or less (imported or legacy rows), each once, written meanwhile or not', async () => {
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const app = await openServerContext(':memory:', () => (clock += 3));
    app.sqlite.transaction(() => {
      for (let i = 0; i < 700; i++)
        app.pets.create(newPet({ name: `Pet ${i}`, species: SPECIES[i % 3] }) as never);
    })();
    const ids = app.sqlite.prepare('SELECT id FROM pets ORDER BY seq').pluck().all() as string[];
    const restamp = app.sqlite.prepare('UPDATE pets SET updated_at = ? WHERE id = ?');
    restamp.run(0, ids[10]);
    restamp.run(-5, ids[20]);
    const facets = app.pets.facets;
    facets.warming = true;
    // The first step reads both; then one of them is written, so the load meets it again at its new stamp.
    expect(facets.warmStep(0)).toBe(false);
    const written = app.pets.get(ids[20] as string) as NonNullable<ReturnType<typeof app.pets.get>>;
    app.sqlite.transaction(() => app.pets.update(written, { status: 'hold' }))();
    while (!facets.warmStep(0)) await new Promise((resolve) => setImmediate(resolve));
    facets.warming = false;
    for (const species of [undefined, 'dog']) {
      for (const offset of [0, 650]) {
        const query = { species, offset, limit: 100 } as PetListQuery;
        expect(viewPage(app, query)).toEqual(referencePage(app, query));
      }
    }
    expect(app.pets.list({ limit: 1, offset: 0 } as PetListQuery).total).toBe(700);
    await app.close();
  });

  it('re-renders many pets after a fee change in short chunks, serving reads in between, every pet once', async () => {
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const app = await openServerContext(':memory:', () => (clock += 1));
    const staff = createStaffOperations(app);
    app.sqlite.transaction(() => {
      for (let i = 0; i < 1200; i++) app.pets.create(newPet({ name: `Dog ${i}` }) as never);
    })();
    const before = app.pets.list({ limit: 1, offset: 0 } as PetListQuery).total;
    const changedAt = clock;
    staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 95 }]);
    // The change committed; its pets wait for their turn, and the list is served meanwhile.
    expect(app.pets.restamps.waiting).toBeGreaterThan(0);
    let readsBetweenChunks = 0;
    while (app.pets.restamps.waiting > 0) {
      expect(app.pets.list({ limit: 100, offset: 600 } as PetListQuery).total).toBe(before);
      readsBetweenChunks++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await app.pets.restamps.settled();
    expect(readsBetweenChunks).toBeGreaterThan(2);
    // A second change nobody reads during: each chunk's pets are in the views when it ends, none left for the
    // next read to re-read at once.
    staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 96 }]);
    await app.pets.restamps.settled();
    const rows = app.sqlite.prepare('SELECT seq, updated_at FROM pets').all() as Array<{
      seq: number;
      updated_at: number;
    }>;
    expect(rows.filter((row) => !app.pets.facets.holds(row.seq, row.updated_at))).toEqual([]);
    const fees = app.sqlite
      .prepare("SELECT json_extract(body, '$.global_adoption_fee') FROM pet_bodies")
      .pluck()
      .all() as number[];
    expect(fees.length).toBe(1200);
    expect(new Set(fees)).toEqual(new Set([96]));
    // Every pet carries a stamp from after the change, so incremental sync sees each one.
    const oldest = app.sqlite.prepare('SELECT MIN(updated_at) FROM pets').pluck().get() as number;
    expect(oldest).toBeGreaterThan(changedAt);
    await app.close();
  });

  it('carries on a re-rendering interrupted by a crash, and fills responses missing after an upgrade', async () => {
    const file = path.join(tempDataDir('shelter-resume-'), 'server.sqlite');
    let app = await openServerContext(file);
    app.sqlite.transaction(() => {
      for (let i = 0; i < 450; i++) app.pets.create(newPet({ name: `Cat ${i}`, species: 'cat' }) as never);
    })();
    const before = app.sqlite.prepare('SELECT MAX(updated_at) FROM pets').pluck().get() as number;
    // The state a crash leaves: the settings change and its job committed, the job part done, one body lost.
    app.sqlite
      .prepare(
        'INSERT INTO fee_rules (id, species, attribute_type, attribute_value, adjustment) VALUES (?, ?, ?, ?, ?)',
      )
      .run('r1', 'cat', 'base', '', 40);
    app.sqlite
      .prepare('INSERT INTO pet_restamp_jobs (condition, params, after_seq) VALUES (?, ?, ?)')
      .run('species = ?', JSON.stringify(['cat']), 100);
    app.sqlite.prepare('DELETE FROM pet_bodies WHERE seq = 5').run();
    await app.close();
    app = await openServerContext(file);
    await app.pets.restamps.settled();
    expect(app.pets.restamps.waiting).toBe(0);
    const restamped = app.sqlite
      .prepare('SELECT COUNT(*) FROM pets WHERE updated_at > ?')
      .pluck()
      .get(before);
    expect(restamped).toBe(350);
    expect(app.pets.bodies.bySeq(5)).toContain('"name":"Cat 4"');
    const fees = app.sqlite
      .prepare("SELECT json_extract(body, '$.global_adoption_fee') FROM pet_bodies WHERE seq > 100")
      .pluck()
      .all();
    expect(new Set(fees)).toEqual(new Set([40]));
    await app.close();
  });

  it('finishes a fee change stopped mid-way at the next start: every dog with the new fee, stamp and ETag', async () => {
    const file = path.join(tempDataDir('shelter-stop-'), 'server.sqlite');
    let app = await openServerContext(file);
    app.sqlite.transaction(() => {
      for (let i = 0; i < 900; i++) {
        app.pets.create(newPet({ name: `Pet ${i}`, species: i % 3 === 0 ? 'cat' : 'dog' }) as never);
      }
    })();
    const before = new Map(
      (
        app.sqlite
          .prepare('SELECT b.seq, b.etag, p.updated_at, p.species FROM pet_bodies b JOIN pets p USING (seq)')
          .all() as Array<{
          seq: number;
          etag: string;
          updated_at: number;
          species: string;
        }>
      ).map((row) => [row.seq, row]),
    );
    createStaffOperations(app).setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 70 }]);
    // Stopped (the app quits) after a chunk or two of the background work.
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.pets.restamps.waiting).toBe(1);
    await app.close();
    app = await openServerContext(file);
    await app.pets.restamps.settled();
    expect(app.pets.restamps.waiting).toBe(0);
    const after = app.sqlite
      .prepare(
        "SELECT b.seq, b.etag, p.updated_at, json_extract(b.body, '$.global_adoption_fee') AS fee FROM pet_bodies b JOIN pets p USING (seq)",
      )
      .all() as Array<{ seq: number; etag: string; updated_at: number; fee: number }>;
    expect(after).toHaveLength(900);
    for (const pet of after) {
      const old = before.get(pet.seq);
      if (old?.species === 'dog') {
        expect(pet.fee).toBe(70);
        expect(pet.updated_at).toBeGreaterThan(old.updated_at);
        expect(pet.etag).not.toBe(old.etag);
      } else {
        expect(pet.updated_at).toBe(old?.updated_at);
        expect(pet.etag).toBe(old?.etag);
      }
    }
    await app.close();
  });
});
