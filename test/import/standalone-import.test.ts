import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { DeskCore } from '../../electron/desk/api';
import { stageFile } from '../../electron/desk/import';
import { openDesk, tempDir } from '../shelter/helpers';
import { shelterTable, writeCsv } from './fixtures';

const PETS = 500;

/** The pets of a standalone desk's own server, read from its database (deleted ones left out). */
function serverPets(dataDir: string): Array<{ name: string; custom_id: string }> {
  const file = path.join(dataDir, 'standalone', 'server.sqlite');
  if (!fs.existsSync(file)) return [];
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT name, custom_id FROM pets WHERE deleted_at IS NULL').all() as Array<{
      name: string;
      custom_id: string;
    }>;
  } finally {
    db.close();
  }
}

async function importPets(core: DeskCore, dataDir: string, file: string) {
  const staged = await stageFile(dataDir, file);
  return core.registry.invoke('import.run', { token: staged.token, kind: 'pets' });
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`Not done within ${ms} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

describe('an import made offline, then a standalone shelter', () => {
  it(`puts each of ${PETS} imported pets on the shelter's own server exactly once, within 60 s`, async () => {
    const dataDir = tempDir('import-standalone-');
    const csv = path.join(dataDir, '..', `${path.basename(dataDir)}-animals.csv`);
    writeCsv(csv, shelterTable(PETS), 'utf-8-bom');
    const core = await openDesk(dataDir);
    try {
      // No connection yet: the import lands in the desk's own records and its outbox, nothing is sent.
      const report = await importPets(core, dataDir, csv);
      expect(report).toMatchObject({ imported: PETS, blocked: false });
      expect((await core.registry.invoke('mirror.counts')).pets.local).toBe(PETS);

      // Running the shelter here carries them to its connection; the outbox replays them with their keys
      // through the desk's own key, which the server does not hold to its 250 writes an hour.
      const started = Date.now();
      await core.registry.invoke('shelter.setup', { choice: 'standalone' });
      await waitFor(() => serverPets(dataDir).length >= PETS, Math.max(0, 60_000 - (Date.now() - started)));
      const took = Date.now() - started;
      await waitFor(async () => (await core.registry.invoke('outbox.list', {})).counts.pending === 0, 10_000);
      const onServer = serverPets(dataDir);
      expect(onServer).toHaveLength(PETS);
      expect(new Set(onServer.map((pet) => pet.custom_id)).size).toBe(PETS);
      console.log(`${PETS} imported pets on the standalone server ${took} ms after the shelter was set up`);

      // Any other key keeps the hourly write limit (250 an hour): the 251st write is refused.
      const { apiUrl } = await core.registry.invoke('shelter.overview');
      const other = await core.registry.invoke('shelter.keys.create', { kind: 'write', name: 'Script' });
      const write = () =>
        fetch(`${apiUrl}/pets`, {
          method: 'POST',
          headers: { 'x-api-key': other.key, 'content-type': 'application/json' },
          body: '{"name":""}',
        });
      for (let index = 0; index < 250; index += 1) expect((await write()).status).toBe(400);
      const refused = await write();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('250');

      // The same file again imports nothing, and nothing more reaches the server.
      const again = await importPets(core, dataDir, csv);
      expect(again).toMatchObject({ imported: 0, totals: { existing: PETS } });
      await core.registry.invoke('sync.now');
      expect(serverPets(dataDir)).toHaveLength(PETS);
    } finally {
      fs.rmSync(csv, { force: true });
    }
  }, 120_000);
});
