import fs from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * How long one SQLite call waits for another process's write lock (SQLite's own busy handler, which polls). The
 * transaction helper below retries on top of it with backoff, up to `DEFAULT_WRITE_WAIT_MS`.
 */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * How long a write waits in all for its turn before the command fails. Generous on purpose: a shelter's script or
 * the app would rather wait than lose an edit, and every write transaction is kept short (see `npm run bench --
 * locks`), so only a stuck process makes anyone wait this long. `SHELTER_DESK_WRITE_WAIT_MS` overrides it.
 */
export const DEFAULT_WRITE_WAIT_MS = 120_000;

export function writeWaitLimitMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SHELTER_DESK_WRITE_WAIT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_WRITE_WAIT_MS;
}

/** SQLITE_BUSY and its extended codes (another connection holds a lock); SQLITE_LOCKED is a bug, not a wait. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

/** Sleeps the thread: better-sqlite3 calls are synchronous, so a retry inside one cannot yield to the loop. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, Math.round(ms)));
}

/** POSIX locks on a WAL database's `-shm` file from `/proc/locks` (Linux): which process holds which byte. */
function shmLocks(filename: string): Array<{ pid: number; start: number; write: boolean }> {
  if (process.platform !== 'linux') return [];
  try {
    const inode = fs.statSync(`${filename}-shm`).ino;
    return fs
      .readFileSync('/proc/locks', 'utf8')
      .split('\n')
      .flatMap((line) => {
        // "1: POSIX  ADVISORY  WRITE 4242 08:01:1234 120 120"
        const fields = line.trim().split(/\s+/);
        const [, , fileInode] = (fields[5] ?? '').split(':');
        if (fields[1] !== 'POSIX' || Number(fileInode) !== inode) return [];
        return [{ pid: Number(fields[4]), start: Number(fields[6]), write: fields[3] === 'WRITE' }];
      });
  } catch {
    // No -shm file, no /proc: nothing can be known.
    return [];
  }
}

/**
 * Which process holds the write lock of a WAL database, when the operating system says (Linux: SQLite takes a POSIX
 * lock on byte 120 of the `-shm` file while a connection writes, byte 121 while it checkpoints). Undefined elsewhere
 * or when no one holds it.
 */
export function describeLockHolder(filename: string): string | undefined {
  const holder = shmLocks(filename).find((lock) => lock.write && (lock.start === 120 || lock.start === 121));
  if (!holder) return undefined;
  return `${describeProcess(holder.pid)} (${holder.start === 120 ? 'writing' : 'checkpointing'})`;
}

/**
 * Other processes that have a WAL database open (each open connection keeps a shared lock on byte 128 of the
 * `-shm` file), as far as the operating system says (Linux); empty when none or unknown.
 */
export function otherProcessesUsing(filename: string): string[] {
  const pids = new Set(
    shmLocks(filename)
      .filter((lock) => lock.start === 128 && lock.pid !== process.pid)
      .map((lock) => lock.pid),
  );
  return [...pids].map(describeProcess);
}

/** "process 4242 (node … shelter-desk.mjs pet update …)", or "this process". */
export function describeProcess(pid: number): string {
  if (pid === process.pid) return `this process (${pid})`;
  try {
    const command = fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ')
      .slice(0, 160);
    return command ? `process ${pid} (${command})` : `process ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}

/** The error a write gives after waiting `DEFAULT_WRITE_WAIT_MS` for its turn. */
export class DatabaseBusyError extends Error {
  readonly code = 'SQLITE_BUSY';
  constructor(
    readonly filename: string,
    waitedMs: number,
    readonly holder: string | undefined,
  ) {
    super(
      `${filename} stayed locked by another writer for ${(waitedMs / 1000).toFixed(0)} s` +
        `${holder ? `: ${holder} holds it` : ''}. Nothing was changed; run the command again, and if it keeps ` +
        'happening, stop the process that holds the database.',
    );
    this.name = 'DatabaseBusyError';
  }
}

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, sleeping with jittered, doubling backoff (10 ms to 500
 * ms) between tries, for at most `limitMs`. `attempt` must be safe to run again (a transaction whose BEGIN failed).
 */
export function retryBusy<T>(
  filename: string,
  limitMs: number,
  attempt: () => T,
  retriable: (error: unknown) => boolean = isBusyError,
): T {
  const started = Date.now();
  for (let tries = 0; ; tries += 1) {
    try {
      return attempt();
    } catch (error) {
      if (!retriable(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= limitMs) throw new DatabaseBusyError(filename, waited, describeLockHolder(filename));
      const ceiling = Math.min(500, 10 * 2 ** tries);
      sleepSync(Math.min(limitMs - waited, ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }
}

/** Longest and total time write transactions held the lock, per database file (measured by the bench). */
export interface LockHoldStats {
  transactions: number;
  longestMs: number;
  totalMs: number;
}

const holdStats = new Map<string, LockHoldStats>();

/** Lock-hold figures of this process since the last reset, per database file. */
export function lockHoldStats(): ReadonlyMap<string, LockHoldStats> {
  return holdStats;
}

export function resetLockHoldStats(): void {
  holdStats.clear();
}

type LockHoldListener = (filename: string, ms: number) => void;
const holdListeners = new Set<LockHoldListener>();

/**
 * Calls `listener` with each write transaction's hold as it commits or rolls back (the bench's distribution of
 * hold times); returns the function that stops it.
 */
export function watchLockHolds(listener: LockHoldListener): () => void {
  holdListeners.add(listener);
  return () => holdListeners.delete(listener);
}

function recordHold(filename: string, ms: number): void {
  const stats = holdStats.get(filename) ?? { transactions: 0, longestMs: 0, totalMs: 0 };
  stats.transactions += 1;
  stats.totalMs += ms;
  stats.longestMs = Math.max(stats.longestMs, ms);
  holdStats.set(filename, stats);
  for (const listener of holdListeners) listener(filename, ms);
}

type AnyFunction = (...args: never[]) => unknown;

const beginHooks = new WeakMap<Database.Database, Array<() => void>>();

/**
 * Runs `hook` first inside every outermost write transaction of this handle (installed by
 * `installWriteTransactions`), under the write lock: what another process committed until then is visible and no
 * further commit of it can land before this transaction ends. A hook that throws rolls the transaction back.
 */
export function atEveryWriteTransaction(sqlite: Database.Database, hook: () => void): void {
  const hooks = beginHooks.get(sqlite);
  if (hooks) hooks.push(hook);
  else beginHooks.set(sqlite, [hook]);
}

/**
 * Makes every `sqlite.transaction(fn)` of this handle a write transaction that queues instead of failing:
 *
 * - Calling it runs `BEGIN IMMEDIATE` (better-sqlite3's default is a deferred `BEGIN`). In WAL mode a deferred
 *   transaction that has read cannot wait for the write lock once another process has committed in between: SQLite
 *   answers SQLITE_BUSY at once, whatever the busy timeout. Taking the lock first makes the wait an ordinary one.
 * - A BEGIN that stays busy past `busy_timeout` is retried with backoff up to `limitMs` (`retryBusy`); only then
 *   does it fail, naming the file and the holder.
 * - The time from BEGIN to COMMIT of the outermost transaction is recorded (`lockHoldStats`).
 * - The outermost transaction runs the hooks of `atEveryWriteTransaction` before its body.
 *
 * Done once where the handle is opened, so every caller (mirror, outbox, sync, server stores) gets it without
 * remembering to, and code written later cannot forget it. `.deferred`, `.immediate` and `.exclusive` stay
 * available with the same waiting.
 */
export function installWriteTransactions(sqlite: Database.Database, filename: string, limitMs: number): void {
  const native = sqlite.transaction.bind(sqlite);
  const transaction = (fn: AnyFunction) => {
    // Set by an outermost call for its own BEGIN only, and taken by the body that BEGIN starts: a BEGIN that failed
    // leaves nothing behind for the next call, which may be nested.
    let atBegin: (() => void) | undefined;
    const tx = native(function (this: unknown, ...args: never[]) {
      const begun = atBegin;
      atBegin = undefined;
      begun?.();
      return fn.apply(this, args);
    });
    const waiting =
      (variant: (...args: never[]) => unknown) =>
      (...args: never[]): unknown => {
        // Nested: a savepoint inside the caller's transaction, which already holds the lock.
        if (sqlite.inTransaction) return variant(...args);
        let entered: number | undefined;
        return retryBusy(
          filename,
          limitMs,
          () => {
            entered = undefined;
            atBegin = () => {
              entered = performance.now();
              for (const hook of beginHooks.get(sqlite) ?? []) hook();
            };
            try {
              return variant(...args);
            } finally {
              atBegin = undefined;
              if (entered !== undefined) recordHold(filename, performance.now() - entered);
            }
          },
          // Only a BEGIN that failed is retried: retrying after the body ran would run its side effects twice.
          (error) => entered === undefined && isBusyError(error),
        );
      };
    const run = waiting(tx.immediate);
    return Object.assign(run, {
      default: run,
      deferred: waiting(tx.deferred),
      immediate: run,
      exclusive: waiting(tx.exclusive),
    });
  };
  sqlite.transaction = transaction as unknown as Database.Database['transaction'];
}
