import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startApiServer } from '../../electron/server';
import { tempDir } from '../temp-mirror';
import { corruptPage } from './damage';

/**
 * Issue #11: damage that appears while the server runs (a disk going bad under it) is reported once, clearly, and
 * the server stays up for what still works: the requests that need the damaged pages fail with an error body, the
 * others are answered.
 */
const folder = tempDir('damaged-serving-');
const KEY = 'serving-damage-write-key';

afterAll(() => folder.remove());

describe('storage damaged while serving', () => {
  it('fails what needs the damaged part with a 503 error body, says so once, and keeps serving the rest', async () => {
    const server = await startApiServer({ dataDir: folder.dir, demo: true, writeKey: KEY });
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
      logged.push(String(line));
    });
    const get = (url: string) => fetch(`${server.origin}${url}`, { headers: { 'x-api-key': KEY } });
    try {
      expect((await get('/api/pets?limit=100')).status).toBe(200);
      const filename = path.join(folder.dir, 'server.sqlite');
      const other = new Database(filename);
      try {
        other.pragma('wal_checkpoint(TRUNCATE)');
        const leaves = other
          // The list reads the pets' stored responses (pet_bodies), other requests the pets table: damage both.
          .prepare(`SELECT pageno FROM dbstat WHERE name IN ('pets', 'pet_bodies') AND pagetype = 'leaf'`)
          .all() as Array<{ pageno: number }>;
        expect(leaves.length).toBeGreaterThan(1);
        for (const { pageno } of leaves) corruptPage(filename, pageno);
        // Another process commits: the server drops its page cache and reads the (now damaged) file again.
        other.exec('CREATE TABLE scratch (x); DROP TABLE scratch;');
      } finally {
        other.close();
      }
      for (let i = 0; i < 3; i += 1) {
        const pets = await get(`/api/pets?limit=100&offset=${i + 1}`);
        expect(pets.status).toBe(503);
        const body = (await pets.json()) as { error: string; request_id: string };
        expect(body.error).toMatch(/could not read part of its database/);
        expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect((await get('/api/people?type=adopter&limit=5')).status).toBe(200);
      expect((await get('/api/openapi.json')).status).toBe(200);
      const reports = logged.filter((line) => line.startsWith('[storage]'));
      expect(reports).toHaveLength(1);
      expect(reports[0]).toContain(filename);
      expect(reports[0]).toMatch(/restore the latest backup/);
    } finally {
      spy.mockRestore();
      await server.close();
    }
  });
});
