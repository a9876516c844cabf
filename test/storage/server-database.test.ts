import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DamagedDatabaseError } from '../../electron/platform/database-integrity';
import { startApiServer } from '../../electron/server';
import { tempDir } from '../temp-mirror';
import { btrees, copyDatabase, corruptPage } from './damage';

/**
 * Issue #11: a damaged server database is found before the server says "listening": a page of garbage in any table
 * or index, a truncated file and an emptied (zero-length) file are refused, naming the file and the way out
 * (restore a backup), instead of starting as an empty shelter or failing request by request.
 */
const folder = tempDir('damaged-server-');
const pristine = path.join(folder.dir, 'pristine.sqlite');

beforeAll(async () => {
  const dataDir = path.join(folder.dir, 'source');
  const server = await startApiServer({ dataDir, demo: true, writeKey: 'damage-test-write-key' });
  await server.close();
  fs.copyFileSync(path.join(dataDir, 'server.sqlite'), pristine);
}, 60_000);

afterAll(() => folder.remove());

function serverWith(damage: (filename: string) => void): { dataDir: string; filename: string } {
  const dataDir = fs.mkdtempSync(path.join(folder.dir, 'server-'));
  const filename = path.join(dataDir, 'server.sqlite');
  copyDatabase(pristine, filename);
  damage(filename);
  return { dataDir, filename };
}

async function expectRefused(dataDir: string, filename: string): Promise<void> {
  const error = await startApiServer({ dataDir }).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DamagedDatabaseError);
  expect((error as Error).message).toContain(filename);
  expect((error as Error).message).toMatch(/restore the latest backup/);
}

describe('a damaged server database', () => {
  it('is refused at start with a page of garbage in any table or index', async () => {
    const trees = btrees(pristine);
    expect(trees.filter((tree) => tree.type === 'index').length).toBeGreaterThan(5);
    expect(trees.map((tree) => tree.name)).toEqual(expect.arrayContaining(['pets', 'people', 'api_keys']));
    for (const tree of trees) {
      const { dataDir, filename } = serverWith((file) => corruptPage(file, tree.rootpage));
      await expectRefused(dataDir, filename).catch((error: Error) => {
        throw new Error(`${tree.type} ${tree.name}: ${error.message}`);
      });
    }
  }, 120_000);

  it('is refused when truncated or emptied (not started as an empty shelter)', async () => {
    const truncated = serverWith((file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)));
    await expectRefused(truncated.dataDir, truncated.filename);
    const emptied = serverWith((file) => fs.truncateSync(file, 0));
    await expectRefused(emptied.dataDir, emptied.filename);
    expect(fs.statSync(emptied.filename).size).toBe(0);
  });
});
