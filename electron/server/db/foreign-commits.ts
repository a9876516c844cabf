import type Database from 'better-sqlite3';

/**
 * Commits made by other connections to the server database: the command line (`npm run cli -- keys ...`), a
 * staff script, the desk's own processes. SQLite's `PRAGMA data_version` changes exactly when another connection
 * has committed since the last look (never for this connection's own commits), and reading it costs about a
 * microsecond, so it is checked before every request is answered from memory. After such a commit every
 * registered catch-up runs: settings and keys are re-read, the pets the other process changed leave the caches.
 */
export class ForeignCommits {
  private readonly version: Database.Statement<[]>;
  private seen: number;
  private readonly catchUps: Array<() => void> = [];

  constructor(sqlite: Database.Database) {
    this.version = sqlite.prepare('PRAGMA data_version').pluck();
    this.seen = this.current();
  }

  /** Registers what to bring up to date after another connection's commit (run in registration order). */
  onCommit(catchUp: () => void): void {
    this.catchUps.push(catchUp);
  }

  /** Runs the catch-ups when another connection has committed since the last check. */
  check(): void {
    const version = this.current();
    if (version === this.seen) return;
    this.seen = version;
    for (const catchUp of this.catchUps) catchUp();
  }

  /**
   * Whether no other connection has committed since the last check. Inside a write transaction (which holds the
   * write lock, so no other commit can land until it ends) a true answer means every change in the database
   * since then is this connection's own.
   */
  get quiet(): boolean {
    return this.current() === this.seen;
  }

  private current(): number {
    return this.version.get() as number;
  }
}
