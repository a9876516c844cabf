import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { newKeySalt, saltedKeyHash, sha256Digest } from '../db/key-hash';
import type { ApiKeyRow } from '../db/rows';
import { evictOldest } from './evict-oldest';

export type KeyAccess = 'read' | 'write';

export interface AuthenticatedKey {
  id: string;
  access: KeyAccess;
}

/** A stored key as staff see it: never the key itself, only the few first characters that tell keys apart. */
export interface ApiKeyListing {
  id: string;
  label: string;
  access: KeyAccess;
  keyPrefix: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, to the minute: last successful use (null: never used since it was stored). */
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The key a standalone desk uses for its own shelter: it cannot be revoked. */
  deskOwn: boolean;
}

/** How a revocation went: a desk's own key is never revoked (see `ApiKeyRegistry.provision`). */
export type Revocation = 'revoked' | 'unknown' | 'desk-own';

/** The name a standalone desk's own key is listed under. */
export const DESK_OWN_KEY_LABEL = 'This desk (its own shelter)';

/** A key's time of last use is noted at most this often (to the minute is all staff need). */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys recently accepted, remembered so a valid key costs a map lookup instead of one HMAC per stored key. */
const ACCEPTED_CACHE_SIZE = 256;

/** The characters of a key kept in clear for the settings list: a quarter of it at most, 8 at most. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, Math.min(8, Math.floor(key.length / 4)));
}

/** A new random key (192 random bits); the `sd_w_` / `sd_r_` start tells write from read keys at a glance. */
export function generateApiKey(access: KeyAccess): string {
  return `sd_${access === 'write' ? 'w' : 'r'}_${randomBytes(24).toString('base64url')}`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * API keys, stored as salted hashes (see `saltedKeyHash`); the plaintext is never stored or logged. A
 * presented key is checked against every active key with a constant-time comparison; keys accepted
 * recently are remembered in memory (cleared on every change) so the hot path stays a map lookup.
 */
export class ApiKeyRegistry {
  private active: ApiKeyRow[] = [];
  private readonly accepted = new Map<string, AuthenticatedKey>();
  private readonly lastNoted = new Map<string, number>();
  /** Uses not yet written: they ride along with the next write transaction (see `flushUses`). */
  private readonly unwritten = new Map<string, number>();
  private readonly touch: Database.Statement<[number, string]>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly now: () => number,
  ) {
    this.touch = sqlite.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.reload();
  }

  /** Re-reads the active keys (after a change here, or one by another process: `ForeignCommits`). */
  reload(): void {
    this.active = this.sqlite.prepare('SELECT * FROM api_keys WHERE revoked_at IS NULL').all() as ApiKeyRow[];
    this.accepted.clear();
  }

  get activeCount(): number {
    return this.active.length;
  }

  /** The key record for a presented key, or undefined for an unknown or revoked key. */
  authenticate(presented: string): AuthenticatedKey | undefined {
    let key = this.accepted.get(presented);
    if (!key) {
      const row = this.find(presented, this.active);
      if (!row) return undefined;
      key = { id: row.id, access: row.access };
      this.accepted.set(presented, key);
      if (this.accepted.size > ACCEPTED_CACHE_SIZE) evictOldest(this.accepted, ACCEPTED_CACHE_SIZE / 4);
    }
    this.noteUse(key.id);
    return key;
  }

  /**
   * Stores a key (salted and hashed) unless it is already stored; a revoked copy is reactivated. A desk's own key
   * (`deskOwn`) is named `DESK_OWN_KEY_LABEL` and is the only key so marked.
   */
  provision(key: string, access: KeyAccess, label: string, options: { deskOwn?: boolean } = {}): string {
    const id = this.sqlite.transaction(() => {
      const all = this.sqlite.prepare('SELECT * FROM api_keys').all() as ApiKeyRow[];
      const found = this.find(key, all);
      if (found) {
        this.sqlite
          .prepare('UPDATE api_keys SET access = ?, revoked_at = NULL WHERE id = ?')
          .run(access, found.id);
      }
      const stored = found?.id ?? this.insert(key, access, label);
      if (options.deskOwn) {
        this.sqlite
          .prepare('UPDATE api_keys SET desk_own = (id = ?), label = iif(id = ?, ?, label)')
          .run(stored, stored, DESK_OWN_KEY_LABEL);
      }
      return stored;
    })();
    this.reload();
    return id;
  }

  private insert(key: string, access: KeyAccess, label: string): string {
    const id = randomUUID();
    const salt = newKeySalt();
    this.sqlite
      .prepare(
        `INSERT INTO api_keys (id, label, access, key_salt, key_hash, key_prefix, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        label,
        access,
        salt,
        saltedKeyHash(salt, sha256Digest(key)),
        keyPrefixOf(key),
        Math.floor(this.now()),
      );
    return id;
  }

  /** Creates a random key; the plaintext is returned once and never stored. */
  create(access: KeyAccess, label: string): { id: string; key: string } {
    const key = generateApiKey(access);
    return { id: this.provision(key, access, label), key };
  }

  revoke(id: string): Revocation {
    const row = this.sqlite
      .prepare('SELECT desk_own FROM api_keys WHERE id = ? AND revoked_at IS NULL')
      .get(id) as Pick<ApiKeyRow, 'desk_own'> | undefined;
    if (!row) return 'unknown';
    if (row.desk_own) return 'desk-own';
    this.sqlite.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(Math.floor(this.now()), id);
    this.reload();
    return 'revoked';
  }

  /** Every stored key, revoked ones included, oldest first. */
  list(): ApiKeyListing[] {
    const rows = this.sqlite.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as ApiKeyRow[];
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      access: row.access,
      keyPrefix: row.key_prefix,
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: iso(this.unwritten.get(row.id) ?? row.last_used_at),
      revokedAt: iso(row.revoked_at),
      deskOwn: row.desk_own === 1,
    }));
  }

  /**
   * Writes the times of last use noted since the last flush. Called inside write transactions (so reads never
   * wait for a disk sync of their own), by a slow timer and at close; a failure to write is ignored (the time
   * of last use is only a hint for staff, and it is tried again next time).
   */
  flushUses(): void {
    if (this.unwritten.size === 0) return;
    try {
      for (const [id, at] of this.unwritten) this.touch.run(at, id);
      this.unwritten.clear();
    } catch {
      // Kept in memory for the next attempt.
    }
  }

  private find(presented: string, rows: ApiKeyRow[]): ApiKeyRow | undefined {
    const digest = sha256Digest(presented);
    let found: ApiKeyRow | undefined;
    // Every row is compared (no early exit), so the time taken does not tell which row matched.
    for (const row of rows) {
      const candidate = Buffer.from(saltedKeyHash(row.key_salt, digest), 'hex');
      const stored = Buffer.from(row.key_hash, 'hex');
      if (candidate.length === stored.length && timingSafeEqual(candidate, stored)) found ??= row;
    }
    return found;
  }

  /** Notes the use of a key, to the minute; written later by `flushUses`. */
  private noteUse(id: string): void {
    const now = Math.floor(this.now());
    const last = this.lastNoted.get(id);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    this.lastNoted.set(id, now);
    this.unwritten.set(id, now);
  }
}
