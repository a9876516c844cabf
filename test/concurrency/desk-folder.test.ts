import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMirrorFile } from '../../electron/desk/sync';
import { petFields, startServer, WRITE_KEY } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';
import { burnCpus, LAUNCHER, run, startChild, stopChild } from './helpers';

/**
 * Issue #17: one desk folder, many processes. Eight command-line writers at once, 25 offline edits each, against
 * one data folder, while the desk runs in browser mode on the same folder and syncs it over and over (replaying what
 * the writers queue), on a machine loaded with a CPU-burning process per core. Every command must exit 0 and every
 * edit must be in the mirror once and on the server once.
 */
const WRITERS = 8;
const EDITS = 25;

let server: Awaited<ReturnType<typeof startServer>>;
const folder = tempDir('desk-concurrency-');
const dataDir = path.join(folder.dir, 'desk');

beforeAll(async () => {
  server = await startServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
  folder.remove();
});

function editOf(writer: number, index: number): { args: string[]; name: string; kind: 'pet' | 'person' } {
  const name = `Writer ${writer} edit ${index}`;
  return index % 5 === 4
    ? {
        kind: 'person',
        name,
        args: ['person', 'create', '--json', JSON.stringify({ type: 'volunteer', name })],
      }
    : { kind: 'pet', name, args: ['pet', 'create', '--json', JSON.stringify(petFields({ name }))] };
}

async function bridge(url: string): Promise<(method: string, input?: unknown) => Promise<unknown>> {
  const page = await (await fetch(url)).text();
  const token = /name="shelter-desk-token" content="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error('no bridge token in index.html');
  return async (method, input) => {
    const response = await fetch(new URL(`/desk/call/${method}`, url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-token': token },
      body: JSON.stringify(input ?? {}),
    });
    return response.json();
  };
}

describe('one desk folder, many processes', () => {
  it('8 CLI writers x 25 edits while browser mode syncs the folder, on a loaded machine: all exit 0, each edit once', async () => {
    const first = await run(process.execPath, [
      LAUNCHER,
      'sync',
      '--remote',
      server.origin,
      '--key',
      WRITE_KEY,
      '--data-dir',
      dataDir,
      '--once',
    ]);
    expect(first.code, first.stderr).toBe(0);

    let app: ChildProcess | undefined;
    const burners = burnCpus();
    try {
      const started = await startChild(
        process.execPath,
        ['--import', 'tsx', 'test/concurrency/browser-child.ts', dataDir],
        /running at (http:\/\/127\.0\.0\.1:\d+\/)/,
      );
      app = started.child;
      const call = await bridge(started.match[1] as string);
      let writing = true;
      // The app keeps syncing (each run replays the outbox the writers fill) for as long as they write.
      const syncing = (async () => {
        let runs = 0;
        while (writing) {
          const answer = (await call('sync.now')) as { ok: boolean };
          if (!answer.ok) throw new Error(`sync.now failed: ${JSON.stringify(answer)}`);
          runs += 1;
        }
        return runs;
      })();
      const results = await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          const lane = [];
          for (let index = 0; index < EDITS; index += 1) {
            const edit = editOf(writer, index);
            lane.push({
              edit,
              result: await run(process.execPath, [LAUNCHER, ...edit.args, '--data-dir', dataDir]),
            });
          }
          return lane;
        }),
      );
      writing = false;
      expect(await syncing).toBeGreaterThan(0);
      burners.stop();

      const failed = results.flat().filter(({ result }) => result.code !== 0);
      expect(failed.map(({ edit, result }) => `${edit.name}: ${result.code} ${result.stderr}`)).toEqual([]);

      // Everything queued goes out: sync until the outbox is empty (bounded).
      for (let attempt = 0; attempt < 20; attempt += 1) {
        await call('sync.now');
        const listed = (await call('outbox.list', {})) as { ok: boolean; value?: { entries: unknown[] } };
        expect(listed.ok, JSON.stringify(listed)).toBe(true);
        if (listed.value?.entries.length === 0) break;
      }
      expect(await stopChild(app)).toBe(0);
      app = undefined;
      expect(started.output()).not.toMatch(/locked|SQLITE_BUSY/);
    } finally {
      burners.stop();
      if (app) await stopChild(app);
    }

    const edits = Array.from({ length: WRITERS }, (_, writer) =>
      Array.from({ length: EDITS }, (_, index) => editOf(writer, index)),
    ).flat();
    const mirror = new Database(activeMirrorFile(dataDir), { readonly: true });
    const serverDb = new Database(path.join(server.dataDir, 'server.sqlite'), { readonly: true });
    try {
      const count = (db: Database.Database, table: string, name: string) =>
        (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE name = ?`).get(name) as { n: number }).n;
      const left = mirror
        .prepare('SELECT state, attempts, last_error_json AS error FROM outbox ORDER BY id LIMIT 5')
        .all();
      expect(left).toEqual([]);
      const wrong = edits.filter(
        (edit) =>
          count(mirror, edit.kind === 'pet' ? 'pet' : 'person', edit.name) !== 1 ||
          count(serverDb, edit.kind === 'pet' ? 'pets' : 'people', edit.name) !== 1,
      );
      expect(wrong.map((edit) => edit.name)).toEqual([]);
    } finally {
      mirror.close();
      serverDb.close();
    }
  }, 600_000);
});
