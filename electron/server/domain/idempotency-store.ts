import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { IDEMPOTENCY_RETENTION_MS } from '../../../shared/contract';
import type { IdempotencyRow } from '../db/rows';

/** Fingerprint of a write (API.md "Retrying writes"): method + path + API key + body bytes. */
export function requestFingerprint(method: string, path: string, apiKeyId: string, body: Buffer): string {
  return createHash('sha256').update(`${method}\n${path}\n${apiKeyId}\n`).update(body).digest('hex');
}

/** Accepted `Idempotency-Key` values: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency keys per API key. A key is "in flight" from the moment its request arrives until its response
 * is decided (held in memory: one server process owns the database). Completed results live in
 * `idempotency_keys` for 24 hours and are written by the caller inside the same transaction as the write
 * itself (`record`), so a killed process never leaves a write without its key or a key without its write.
 */
export class IdempotencyStore {
  private readonly inFlight = new Set<string>();
  private readonly select: Database.Statement<[string, string, number]>;
  private readonly insert: Database.Statement<[string, string, string, number, string, number]>;
  private lastPurge = 0;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly now: () => number,
  ) {
    this.select = sqlite.prepare(
      'SELECT * FROM idempotency_keys WHERE api_key_id = ? AND idempotency_key = ? AND created_at > ?',
    );
    this.insert = sqlite.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (api_key_id, idempotency_key, fingerprint, status, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Marks a key in flight; false when a request with the same key is still running. */
  begin(apiKeyId: string, key: string): boolean {
    const id = `${apiKeyId}\u0000${key}`;
    if (this.inFlight.has(id)) return false;
    this.inFlight.add(id);
    return true;
  }

  end(apiKeyId: string, key: string): void {
    this.inFlight.delete(`${apiKeyId}\u0000${key}`);
  }

  /** The completed result stored for a key within the retention time. */
  lookup(apiKeyId: string, key: string): IdempotencyRow | undefined {
    return this.select.get(apiKeyId, key, this.now() - IDEMPOTENCY_RETENTION_MS) as
      | IdempotencyRow
      | undefined;
  }

  /** Stores a completed result; call inside the write's transaction. */
  record(apiKeyId: string, key: string, fingerprint: string, status: number, body: string): void {
    const now = Math.floor(this.now());
    this.insert.run(apiKeyId, key, fingerprint, status, body, now);
    if (now - this.lastPurge > 60_000) {
      this.lastPurge = now;
      this.sqlite
        .prepare('DELETE FROM idempotency_keys WHERE created_at <= ?')
        .run(now - IDEMPOTENCY_RETENTION_MS);
    }
  }
}
