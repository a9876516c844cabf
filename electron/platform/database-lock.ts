import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import { z } from 'zod';
import { describeProcess } from './write-lock';

/**
 * A lock file beside a database (`<file>.lock`) held while one process does something no other may see half done:
 * migrating it, creating it, restoring a backup into it, a truncating checkpoint. Everyone who opens the database
 * waits while it exists (`waitForDatabase`), and those who need it exclusively take it (`holdDatabaseExclusively`).
 * SQLite's own locks cannot do this: they protect one transaction, not "replace the file" or "run every
 * migration", and a process opening the file in between would see the old file or half the migrations.
 */
const holderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  purpose: z.string(),
  since: z.string(),
});
type Holder = z.infer<typeof holderSchema>;

/** How long openers and other exclusive holders wait in all (a restore of a large shelter can take a while). */
export const DEFAULT_OPEN_WAIT_MS = 10 * 60_000;
/** After this long a waiting process says what it waits for (once). */
const SAY_AFTER_MS = 2_000;
/** A lock from another host (a shared folder) with no news for this long is taken as left behind. */
const FOREIGN_STALE_MS = 30 * 60_000;

export function lockFileOf(filename: string): string {
  return `${filename}.lock`;
}

export interface DatabaseLockOptions {
  /** Give up after this long (default `DEFAULT_OPEN_WAIT_MS`). */
  waitMs?: number;
  /** Told once when the wait gets long (default: a line on stderr). */
  onLongWait?: (message: string) => void;
}

/** The holder when the lock is held by a live process; undefined (and a left-behind lock removed) otherwise. */
function currentHolder(lock: string): Holder | undefined {
  let text: string;
  let mtimeMs: number;
  try {
    text = fs.readFileSync(lock, 'utf8');
    mtimeMs = fs.statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
  let holder: Holder | undefined;
  try {
    holder = holderSchema.parse(JSON.parse(text));
  } catch {
    // Being written this instant, or garbage left by a crash mid-write: give it a moment before calling it stale.
    if (Date.now() - mtimeMs < 5_000) return { pid: 0, host: '', purpose: 'locked', since: '' };
  }
  const live =
    holder !== undefined &&
    (holder.host === os.hostname() ? isAlive(holder.pid) : Date.now() - mtimeMs < FOREIGN_STALE_MS);
  if (live) return holder;
  // The holder died (killed mid-migration or mid-restore): the lock is left behind. Renaming first means that of
  // two processes finding it stale at once, only one removes it.
  const aside = `${lock}.stale-${process.pid}`;
  try {
    fs.renameSync(lock, aside);
    fs.rmSync(aside, { force: true });
  } catch {
    // Someone else removed it first.
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function describeHolder(filename: string, holder: Holder): string {
  const who =
    holder.pid === 0
      ? 'another process'
      : holder.host === os.hostname()
        ? describeProcess(holder.pid)
        : `process ${holder.pid} on ${holder.host}`;
  return `${filename} is being ${holder.purpose} by ${who}${holder.since ? ` since ${holder.since}` : ''}`;
}

/**
 * The locks held by the current async flow: a restore that opens the database it holds must not wait for itself,
 * while another flow of the same process still waits its turn.
 */
const heldHere = new AsyncLocalStorage<ReadonlySet<string>>();
const holds = (lock: string) => heldHere.getStore()?.has(lock) === true;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitTurn(
  filename: string,
  options: DatabaseLockOptions,
  tryTake: () => boolean,
): Promise<void> {
  const lock = lockFileOf(filename);
  const limit = options.waitMs ?? DEFAULT_OPEN_WAIT_MS;
  const say = options.onLongWait ?? ((message: string) => process.stderr.write(`${message}\n`));
  const started = Date.now();
  let said = false;
  for (let tries = 0; ; tries += 1) {
    if (tryTake()) return;
    // Unknown holder (the file vanished, was left behind and removed, or cannot be read): try again shortly.
    const holder = currentHolder(lock) ?? {
      pid: 0,
      host: '',
      purpose: 'locked (its lock file cannot be read)',
      since: '',
    };
    const waited = Date.now() - started;
    if (waited >= limit) {
      throw new Error(
        `${describeHolder(filename, holder)}; gave up after ${Math.round(waited / 1000)} s. Wait for it to finish, or ` +
          `stop that process; if no such process runs, delete ${lock}.`,
      );
    }
    if (!said && waited >= SAY_AFTER_MS) {
      said = true;
      say(`Waiting: ${describeHolder(filename, holder)}.`);
    }
    await sleep(Math.min(250, 5 * 2 ** tries));
  }
}

/** Waits while another process holds `filename` exclusively (migrating, restoring…). Takes nothing. */
export function waitForDatabase(filename: string, options: DatabaseLockOptions = {}): Promise<void> {
  if (holds(lockFileOf(filename))) return Promise.resolve();
  return waitTurn(filename, options, () => !fs.existsSync(lockFileOf(filename)));
}

/**
 * Holds `filename` exclusively while `run` works on it: waits for any other holder first, then every process that
 * opens the database (through `openDatabase`) waits until `run` ends. `purpose` finishes "is being …" in the
 * messages other processes print ("restored from a backup", "migrated").
 *
 * For a restore: take it, close your own handle, swap the file (and remove its `-wal` and `-shm`), release. Processes
 * that already have the database open keep their handle on the old file: stop them first (the desk app, a running
 * `serve`); the ones that open it meanwhile wait and then see the restored file.
 */
export async function holdDatabaseExclusively<T>(
  filename: string,
  purpose: string,
  run: () => T | Promise<T>,
  options: DatabaseLockOptions = {},
): Promise<T> {
  const lock = lockFileOf(filename);
  if (holds(lock)) return run();
  const record: Holder = { pid: process.pid, host: os.hostname(), purpose, since: new Date().toISOString() };
  await waitTurn(filename, options, () => {
    try {
      fs.writeFileSync(lock, JSON.stringify(record), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  });
  try {
    return await heldHere.run(new Set([...(heldHere.getStore() ?? []), lock]), run);
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
