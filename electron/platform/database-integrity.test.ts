import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TempDir, tempDir } from '../../test/temp-mirror';
import { readDatabaseOffThread } from './database-integrity';

const folders: TempDir[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const folder of folders.splice(0)) folder.remove();
});

function smallDatabase(): string {
  const folder = tempDir('sd-integrity-');
  folders.push(folder);
  const file = path.join(folder.dir, 'small.sqlite');
  const db = new Database(file);
  db.exec("CREATE TABLE pets (name TEXT); INSERT INTO pets VALUES ('Bella'), ('Rex')");
  db.close();
  return file;
}

describe('readDatabaseOffThread', () => {
  it('answers from a worker thread, statement by statement', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reading = await readDatabaseOffThread(smallDatabase(), [
      'PRAGMA quick_check',
      'SELECT name FROM pets ORDER BY name',
    ]);
    expect(reading).toEqual({ results: [['ok'], ['Bella', 'Rex']] });
    expect(errors).not.toHaveBeenCalled();
  });

  it('reads on this thread, with one line on stderr, when the worker cannot load the driver', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reading = await readDatabaseOffThread(
      smallDatabase(),
      ['PRAGMA quick_check', 'SELECT count(*) FROM pets'],
      {
        driver: path.join(os.tmpdir(), 'no-such-driver', 'index.js'),
      },
    );
    expect(reading).toEqual({ results: [['ok'], [2]] });
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/on the main thread: a worker thread could not/);
  });

  it('reports an error of the statements, not a fallback', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reading = await readDatabaseOffThread(smallDatabase(), ['SELECT name FROM no_such_table']);
    expect(reading.error?.message).toMatch(/no such table/);
    expect(errors).not.toHaveBeenCalled();
  });
});
