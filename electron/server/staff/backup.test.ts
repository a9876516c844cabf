import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TempDir, tempDir } from '../../../test/temp-mirror';
import { type RunningApiServer, startApiServer } from '../index';
import {
  type BackupInfo,
  BackupRefusedError,
  dropStaged,
  glanceAtBackup,
  inspectBackup,
  stageBackup,
  swapDatabaseFile,
  swapInStaged,
} from './backup';

const folders: TempDir[] = [];
function newFolder(): string {
  const folder = tempDir('sd-backup-');
  folders.push(folder);
  return folder.dir;
}

/**
 * Runs `work` while counting the turns of this thread's event loop: a check or copy done synchronously on this
 * thread lets none happen until it ends.
 */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    return { result: await work(), turns };
  } finally {
    done = true;
  }
}

/** The first value `sql` reads from the database `file`. */
function valueIn(file: string, sql: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}

describe('restoring a backup', () => {
  let server: RunningApiServer;
  let backup: string;
  let pets: number;

  beforeAll(async () => {
    server = await startApiServer({
      dataDir: newFolder(),
      demo: true,
      writeKey: 'backup-test-write-key-012345',
    });
    backup = path.join(newFolder(), 'shelter.sqlite');
    ({ pets } = await server.staff.backup(backup));
    expect(fs.readdirSync(path.dirname(backup))).toEqual(['shelter.sqlite']);
  });
  afterAll(async () => {
    await server.close();
    for (const folder of folders) folder.remove();
  });

  it('checks a backup in a worker thread: the event loop keeps turning while SQLite checks the file', async () => {
    const { result, turns } = await turnsDuring(() => inspectBackup(backup));
    expect(result).toMatchObject({ file: backup, pets });
    expect(pets).toBeGreaterThan(0);
    expect(turns).toBeGreaterThan(20);
  });

  it('swaps in a checked copy while the event loop keeps turning, the previous database kept aside', async () => {
    const target = path.join(newFolder(), 'server.sqlite');
    fs.writeFileSync(target, 'the previous database');
    fs.writeFileSync(`${target}.before-restore`, 'what an earlier restore kept aside');
    // Deleting what an earlier restore kept aside (hundreds of MB at a shelter) took 60-80 ms: never on this
    // thread, nor any other move of a database file (the swap's own lock file is a few bytes).
    const onThisThread = [vi.spyOn(fs, 'rmSync'), vi.spyOn(fs, 'unlinkSync'), vi.spyOn(fs, 'renameSync')];
    let swapped: Awaited<ReturnType<typeof turnsDuring<BackupInfo>>>;
    try {
      swapped = await turnsDuring(() => swapDatabaseFile(target, backup));
      for (const spy of onThisThread) {
        const files = spy.mock.calls.map(([file]) => String(file));
        expect(files.filter((file) => !file.endsWith('.lock'))).toEqual([]);
      }
    } finally {
      for (const spy of onThisThread) spy.mockRestore();
    }
    const { result, turns } = swapped;
    expect(result).toMatchObject({ file: backup, pets });
    expect(turns).toBeGreaterThan(20);
    expect(fs.readFileSync(`${target}.before-restore`, 'utf8')).toBe('the previous database');
    expect(fs.readdirSync(path.dirname(target)).filter((name) => name.includes('restoring'))).toEqual([]);
    expect(valueIn(target, 'SELECT COUNT(*) FROM pets WHERE deleted_at IS NULL')).toBe(pets);
  });

  it('stages a checked copy beside the database without touching it, and a dropped copy leaves nothing behind', async () => {
    const target = path.join(newFolder(), 'server.sqlite');
    fs.writeFileSync(target, 'the database in use');
    const staged = await stageBackup(target, backup);
    expect(staged).toMatchObject({ file: backup, pets, databasePath: target });
    expect(fs.readFileSync(target, 'utf8')).toBe('the database in use');
    expect(fs.statSync(staged.staged).size).toBe(fs.statSync(backup).size);
    await dropStaged(staged);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['server.sqlite']);
  });

  it('re-stamps the copy above every stamp of the database it replaces, before putting it in place', async () => {
    const target = path.join(newFolder(), 'server.sqlite');
    fs.copyFileSync(backup, target);
    const current = new Database(target);
    // Stamps ahead of the clock, as a re-rendering of many pets leaves them: desks saw them.
    const ahead = Date.now() + 3_600_000;
    current.prepare('UPDATE pets SET updated_at = ? WHERE seq = (SELECT MAX(seq) FROM pets)').run(ahead);
    current.close();
    const swapped = await swapDatabaseFile(target, backup);
    expect(swapped).toMatchObject({ restamped: true, pets });
    expect(valueIn(target, 'SELECT MIN(updated_at) FROM pets WHERE deleted_at IS NULL')).toBe(ahead + 1);
  });

  it('deletes the staged copy when the swap fails, and leaves the current database in place', async () => {
    const target = path.join(newFolder(), 'server.sqlite');
    fs.writeFileSync(target, 'the previous database');
    const staged = await stageBackup(target, backup);
    const rename = fs.promises.rename;
    const failing = vi.spyOn(fs.promises, 'rename').mockImplementation(async (from, to) => {
      if (String(from) === staged.staged) throw new Error('EIO: the disk said no');
      await rename(from, to);
    });
    try {
      await expect(swapInStaged(staged)).rejects.toThrow('the disk said no');
    } finally {
      failing.mockRestore();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('the previous database');
    expect(fs.readdirSync(path.dirname(target)).filter((name) => name.includes('restoring'))).toEqual([]);
  });

  it('leaves a database at its path after every step of the swap, so a crash at any point leaves one', async () => {
    const target = path.join(newFolder(), 'server.sqlite');
    fs.writeFileSync(target, 'the previous database');
    fs.writeFileSync(`${target}-wal`, 'its WAL, left by a stop that did not close it');
    const present: boolean[] = [];
    const steps = (['rename', 'link', 'rm', 'copyFile'] as const).map((name) => {
      const step = fs.promises[name] as (...args: unknown[]) => Promise<void>;
      return vi.spyOn(fs.promises, name).mockImplementation(async (...args: unknown[]) => {
        await step(...args);
        present.push(fs.existsSync(target));
      });
    });
    try {
      await swapDatabaseFile(target, backup);
    } finally {
      for (const spy of steps) spy.mockRestore();
    }
    expect(present.length).toBeGreaterThan(3);
    expect(present.every(Boolean)).toBe(true);
    expect(fs.readFileSync(`${target}.before-restore`, 'utf8')).toBe('the previous database');
    expect(fs.readFileSync(`${target}.before-restore-wal`, 'utf8')).toBe(
      'its WAL, left by a stop that did not close it',
    );
    expect(fs.existsSync(`${target}-wal`)).toBe(false);
  });

  it('refuses a file that is missing, not SQLite, damaged or not a shelter, and leaves the current database as it was', async () => {
    const folder = newFolder();
    const notSqlite = path.join(folder, 'notes.sqlite');
    fs.writeFileSync(notSqlite, 'x'.repeat(8192));
    const foreign = path.join(folder, 'foreign.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE pets (id TEXT)');
    other.close();
    const damaged = path.join(folder, 'damaged.sqlite');
    fs.copyFileSync(backup, damaged);
    const pageSize = 4096;
    const fd = fs.openSync(damaged, 'r+');
    for (let page = 2; page * pageSize < fs.statSync(damaged).size; page += 3) {
      fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, page * pageSize);
    }
    fs.closeSync(fd);

    const refusals: Array<[string, RegExp]> = [
      [path.join(folder, 'missing.sqlite'), /missing\.sqlite does not exist\.$/],
      [folder, /is not a file\.$/],
      [notSqlite, /notes\.sqlite is not a readable Shelter Desk backup \(file is not a database\)\.$/],
      [damaged, /damaged\.sqlite (is damaged|is not a readable Shelter Desk backup) \(/],
      [foreign, /foreign\.sqlite is a SQLite database but not a Shelter Desk shelter backup \(no people, /],
    ];
    const target = path.join(newFolder(), 'server.sqlite');
    fs.writeFileSync(target, 'the current database');
    for (const [file, message] of refusals) {
      await expect(inspectBackup(file)).rejects.toThrow(BackupRefusedError);
      await expect(inspectBackup(file)).rejects.toThrow(message);
      await expect(swapDatabaseFile(target, file)).rejects.toThrow(message);
      expect(fs.readFileSync(target, 'utf8')).toBe('the current database');
      expect(fs.readdirSync(path.dirname(target)).sort()).toEqual(['server.sqlite']);
    }

    // The first look before a restore is confirmed: a missing file, a folder and a file that is no SQLite database
    // are said at once; a SQLite file passes with its size and time, and nothing is written beside it.
    expect(() => glanceAtBackup(refusals[0]?.[0] ?? '')).toThrow(/missing\.sqlite does not exist\.$/);
    expect(() => glanceAtBackup(folder)).toThrow(/is not a file\.$/);
    expect(() => glanceAtBackup(notSqlite)).toThrow(
      /notes\.sqlite is not a Shelter Desk backup \(backups are/,
    );
    const before = fs.readdirSync(folder).sort();
    expect(glanceAtBackup(foreign)).toEqual({
      bytes: fs.statSync(foreign).size,
      modifiedAt: fs.statSync(foreign).mtime.toISOString(),
    });
    expect(fs.readdirSync(folder).sort()).toEqual(before);
  });
});
