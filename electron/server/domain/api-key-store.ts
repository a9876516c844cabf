import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ApiKeyRow } from '../db/rows';

export type KeyAccess = 'read' | 'write';

export interface AuthenticatedKey {
  id: string;
  access: KeyAccess;
}

/** SHA-256 of the key, hex: what the database stores instead of the key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key; the prefix tells read from write keys at a glance in the settings. */
export function generateApiKey(access: KeyAccess): string {
  return `sd_${access === 'write' ? 'w' : 'r'}_${randomBytes(24).toString('base64url')}`;
}

/**
 * API keys, stored hashed. Lookup goes through the hash (so the plaintext is never kept) and ends with a
 * constant-time comparison of the digests. Keys are never logged.
 */
export class ApiKeyRegistry {
  private active = new Map<string, ApiKeyRow>();
  /** SQLite's `data_version` when the cache was loaded: it changes when another connection commits. */
  private loadedVersion = -1;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly now: () => number,
  ) {
    this.reload();
  }

  reload(): void {
    this.loadedVersion = this.dataVersion();
    const rows = this.sqlite.prepare('SELECT * FROM api_keys WHERE revoked_at IS NULL').all() as ApiKeyRow[];
    this.active = new Map(rows.map((row) => [row.key_hash, row]));
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** The key record for a presented key, or undefined for an unknown or revoked key. */
  authenticate(presented: string): AuthenticatedKey | undefined {
    // A key created or revoked by another process (`npm run cli -- keys`) counts from its next request.
    if (this.dataVersion() !== this.loadedVersion) this.reload();
    const digest = hashApiKey(presented);
    const row = this.active.get(digest);
    if (!row) return undefined;
    const same = timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(digest, 'hex'));
    return same ? { id: row.id, access: row.access } : undefined;
  }

  /** Stores a key (hashed) unless it is already stored; a revoked copy is reactivated. */
  provision(key: string, access: KeyAccess, label: string): string {
    const digest = hashApiKey(key);
    const existing = this.sqlite.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(digest) as
      | ApiKeyRow
      | undefined;
    if (existing) {
      this.sqlite
        .prepare('UPDATE api_keys SET access = ?, revoked_at = NULL WHERE id = ?')
        .run(access, existing.id);
      this.reload();
      return existing.id;
    }
    const id = randomUUID();
    this.sqlite
      .prepare(
        'INSERT INTO api_keys (id, label, access, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, label, access, digest, key.slice(0, 6), Math.floor(this.now()));
    this.reload();
    return id;
  }

  /** Creates a random key; the plaintext is returned once and never stored. */
  create(access: KeyAccess, label: string): { id: string; key: string } {
    const key = generateApiKey(access);
    return { id: this.provision(key, access, label), key };
  }

  private versionStatement: Database.Statement | undefined;

  private dataVersion(): number {
    this.versionStatement ??= this.sqlite.prepare('PRAGMA data_version').pluck();
    return this.versionStatement.get() as number;
  }

  revoke(id: string): boolean {
    const result = this.sqlite
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(Math.floor(this.now()), id);
    this.reload();
    return result.changes > 0;
  }
}
