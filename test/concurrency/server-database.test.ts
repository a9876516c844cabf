import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { petFields } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';
import { burnCpus, LAUNCHER, run, startChild, stopChild } from './helpers';

/**
 * Issue #17, the server's side: the server under a write load (clients creating pets with idempotency keys) while
 * other processes write to the same database (keys and custom statuses, as the shelter's commands do) and back it up, on a machine
 * loaded with a CPU-burning process per core. No request fails, every command exits 0, every write is there once.
 */
const KEY = 'server-concurrency-write-key';
const CLIENTS = 6;
const PETS_PER_CLIENT = 40;
const COMMANDS = 6;
const KEYS_PER_COMMAND = 10;

const folder = tempDir('server-concurrency-');
afterAll(() => folder.remove());

describe('one server database, many processes', () => {
  it('serves a write load while command-line writers and backups run, on a loaded machine', async () => {
    const dataDir = path.join(folder.dir, 'server');
    const burners = burnCpus();
    const serve = await startChild(
      process.execPath,
      [LAUNCHER, 'serve', '--port', '0', '--data-dir', dataDir],
      /listening on (http:\/\/127\.0\.0\.1:\d+)\/api/,
      { SHELTER_DESK_WRITE_KEY: KEY, SHELTER_DESK_RATE_LIMIT: '1000000' },
    );
    try {
      const origin = serve.match[1] as string;
      const statuses: number[] = [];
      const load = Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let i = 0; i < PETS_PER_CLIENT; i += 1) {
            const response = await fetch(`${origin}/api/pets`, {
              method: 'POST',
              headers: {
                'x-api-key': KEY,
                'content-type': 'application/json',
                'idempotency-key': randomUUID(),
              },
              body: JSON.stringify(petFields({ name: `Client ${client} pet ${i}` })),
            });
            await response.arrayBuffer();
            statuses.push(response.status);
          }
        }),
      );
      const commands = await Promise.all(
        Array.from({ length: COMMANDS }, (_, command) =>
          run(process.execPath, [
            '--import',
            'tsx',
            'test/concurrency/server-writer-child.ts',
            dataDir,
            `Command ${command}`,
            String(KEYS_PER_COMMAND),
            path.join(folder.dir, `backup-${command}.sqlite`),
          ]),
        ),
      );
      await load;
      burners.stop();
      expect(commands.map((result) => `${result.code} ${result.stderr}`)).toEqual(commands.map(() => '0 '));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(await stopChild(serve.child)).toBe(0);
      expect(serve.output()).not.toMatch(/locked|SQLITE_BUSY|internal error/);
    } finally {
      burners.stop();
      await stopChild(serve.child);
    }

    const db = new Database(path.join(dataDir, 'server.sqlite'), { readonly: true });
    try {
      const pets = db.prepare(`SELECT name, COUNT(*) AS n FROM pets GROUP BY name`).all() as Array<{
        name: string;
        n: number;
      }>;
      expect(pets.filter((pet) => pet.n !== 1)).toEqual([]);
      expect(pets).toHaveLength(CLIENTS * PETS_PER_CLIENT);
      for (const [table, kind] of [
        ['api_keys', 'key'],
        ['custom_statuses', 'status'],
      ] as const) {
        const rows = db
          .prepare(`SELECT label FROM ${table} WHERE label LIKE ?`)
          .all(`Command % ${kind} %`) as Array<{ label: string }>;
        expect(rows).toHaveLength(COMMANDS * KEYS_PER_COMMAND);
        expect(new Set(rows.map((row) => row.label)).size).toBe(COMMANDS * KEYS_PER_COMMAND);
      }
    } finally {
      db.close();
    }
    for (let command = 0; command < COMMANDS; command += 1) {
      const backup = new Database(path.join(folder.dir, `backup-${command}.sqlite`), { readonly: true });
      try {
        expect(backup.pragma('quick_check', { simple: true })).toBe('ok');
      } finally {
        backup.close();
      }
    }
    expect(fs.existsSync(path.join(dataDir, 'server.sqlite.lock'))).toBe(false);
  }, 300_000);
});
