import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../electron/desk/api';
import { Outbox, openDeskMirror, rebuildMirror } from '../../electron/desk/outbox';
import { connectionFolder, UNCONFIGURED_ID } from '../../electron/desk/sync';
import { DamagedDatabaseError } from '../../electron/platform/database-integrity';
import { petFields } from '../outbox/helpers';
import { LAUNCHER } from '../run-command';
import { tempDir } from '../temp-mirror';
import { btrees, copyDatabase, corruptPage } from './damage';

/**
 * Issue #11: a damaged desk mirror is found before it serves. A page of garbage in any table or index, a truncated
 * file and an emptied (zero-length) file are refused at open with a message naming the file and the way out, and
 * the way out (`check --rebuild-mirror`) keeps the changes not sent yet.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const folder = tempDir('damaged-mirror-');
const pristine = path.join(folder.dir, 'pristine.sqlite');
let localPetId = '';

beforeAll(async () => {
  const dataDir = path.join(folder.dir, 'source');
  const mirror = await openDeskMirror({ dataDir });
  const outbox = new Outbox({ db: mirror.db });
  for (let i = 0; i < 40; i += 1) {
    const created = outbox.createPet(petFields({ name: `Damage Pet ${i}`, microchip_id: `chip-${i}` }));
    if (created.status === 'queued' && i === 0) localPetId = created.entityId;
  }
  outbox.createPerson({ type: 'volunteer', name: 'Dana Damage', email: 'dana@example.org' });
  // A row an earlier carry took from the unconfigured mirror: a carry cut short must not take it again.
  mirror.db
    .prepare(
      `INSERT INTO carried_row (source_table, row_key, carried_ms) VALUES ('outbox', '["carried-key"]', 1)`,
    )
    .run();
  await outbox.close();
  await mirror.close();
  fs.copyFileSync(path.join(dataDir, 'mirror.sqlite'), pristine);
});

afterAll(() => folder.remove());

/** A desk's data folder whose (active, unconfigured) connection's mirror is damaged by `damage`. */
function deskWith(damage: (filename: string) => void): { dataDir: string; filename: string } {
  const dataDir = fs.mkdtempSync(path.join(folder.dir, 'desk-'));
  fs.mkdirSync(connectionFolder(dataDir, UNCONFIGURED_ID), { recursive: true });
  const filename = path.join(connectionFolder(dataDir, UNCONFIGURED_ID), 'mirror.sqlite');
  copyDatabase(pristine, filename);
  damage(filename);
  return { dataDir, filename };
}

async function expectRefused(filename: string): Promise<void> {
  const error = await openDeskMirror({ dataDir: path.dirname(filename) }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DamagedDatabaseError);
  expect((error as Error).message).toContain(filename);
  expect((error as Error).message).toContain('--rebuild-mirror');
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

describe('a damaged desk mirror', () => {
  it('is refused at open with a page of garbage in any table or index', async () => {
    const trees = btrees(pristine);
    expect(trees.filter((tree) => tree.type === 'index').length).toBeGreaterThan(5);
    expect(trees.map((tree) => tree.name)).toEqual(
      expect.arrayContaining(['pet', 'outbox', 'pet_list_name']),
    );
    for (const tree of trees) {
      const { filename } = deskWith((file) => corruptPage(file, tree.rootpage));
      await expectRefused(filename).catch((error: Error) => {
        throw new Error(`${tree.type} ${tree.name}: ${error.message}`);
      });
    }
  });

  it('is refused when truncated or emptied, and a missing file is a new mirror', async () => {
    const truncated = deskWith((file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)));
    await expectRefused(truncated.filename);
    const emptied = deskWith((file) => fs.truncateSync(file, 0));
    await expectRefused(emptied.filename);
    const fresh = fs.mkdtempSync(path.join(folder.dir, 'fresh-'));
    const mirror = await openDeskMirror({ dataDir: fresh });
    await mirror.close();
    await openDeskMirror({ dataDir: fresh }).then((again) => again.close());
  });

  it('stops the desk from starting, with the message', async () => {
    const { dataDir, filename } = deskWith((file) => corruptPage(file, btrees(file)[0]?.rootpage ?? 2));
    await expect(createDeskCore({ dataDir, appVersion: '0.0.0' })).rejects.toThrow(filename);
  });

  it.runIf(process.platform === 'linux')(
    'refuses to rebuild while another process has the mirror open (its writes would be lost)',
    async () => {
      const { filename } = deskWith((file) => corruptPage(file, btrees(file)[3]?.rootpage ?? 2));
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const db = new (require('better-sqlite3'))(${JSON.stringify(filename)}); db.pragma('journal_mode'); console.log('open'); setInterval(() => {}, 1000);`,
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise((resolve) => holder.stdout.once('data', resolve));
        await expect(rebuildMirror(path.dirname(filename))).rejects.toThrow(/is open in process \d+/);
        expect(fs.existsSync(filename)).toBe(true);
      } finally {
        holder.kill('SIGKILL');
      }
    },
  );

  it('check finds it (exit 1), and check --rebuild-mirror rebuilds it keeping every change not sent yet', async () => {
    const pageOf = (name: string) => btrees(pristine).find((tree) => tree.name === name)?.rootpage ?? 0;
    const { dataDir, filename } = deskWith((file) => corruptPage(file, pageOf('pet_list_name')));
    const found = cli(['check', '--data-dir', dataDir]);
    expect(found.status).toBe(1);
    expect(found.stdout).toContain(`DAMAGED  ${filename}`);
    expect(found.stderr).toContain('--rebuild-mirror');

    const rebuilt = cli(['check', '--data-dir', dataDir, '--rebuild-mirror']);
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/moved to .*damaged-/);
    const again = cli(['check', '--data-dir', dataDir]);
    expect(again.status, again.stderr).toBe(0);

    const listed = cli(['outbox', 'list', '--data-dir', dataDir]);
    expect(listed.status, listed.stderr).toBe(0);
    const { entries } = JSON.parse(listed.stdout) as { entries: Array<{ entityId: string }> };
    expect(entries).toHaveLength(41);
    const mirror = await openDeskMirror({ dataDir: path.dirname(filename) });
    try {
      expect(mirror.db.prepare('SELECT name FROM pet WHERE id = ?').get(localPetId)).toEqual({
        name: 'Damage Pet 0',
      });
      expect(mirror.db.prepare('SELECT source_table, row_key FROM carried_row').all()).toEqual([
        { source_table: 'outbox', row_key: '["carried-key"]' },
      ]);
      expect(mirror.db.prepare(`SELECT COUNT(*) AS n FROM pet WHERE name LIKE 'Damage Pet %'`).get()).toEqual(
        {
          n: 40,
        },
      );
    } finally {
      await mirror.close();
    }
  });

  it('rebuilds a mirror older than the record of carried rows without calling that table lost', async () => {
    const { dataDir } = deskWith((file) => {
      const db = new Database(file);
      db.exec('DROP TABLE carried_row');
      db.close();
    });
    const result = await rebuildMirror(connectionFolder(dataDir, UNCONFIGURED_ID));
    expect(result.lost).toEqual([]);
    expect(result.kept.outbox).toBe(41);
  });
});
