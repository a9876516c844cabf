import { strongEtag } from '../domain/entity-tag';
import { evictOldest } from '../domain/evict-oldest';

export interface CachedResponse {
  body: Buffer | string;
  etag: string;
}

/**
 * Encoded response bodies with their ETags, each kept under the data version it was built from (a list
 * view's version) or until `delete` (a single pet that a write changed). Only what changed is dropped; the
 * size bound limits memory (200 list pages or 10,000 pets are a few tens of MB at most).
 *
 * A response is kept only from the second time its key is stored: most requests on a busy LAN (each desk's
 * own `updated_since`, a pet nobody asked for in a while) come once, and keeping each of them would only
 * push out the ones that do come back and leave large buffers for the full garbage collections to free.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse & { version: string }>();
  /** Keys stored once and not kept yet (only the key: a few bytes each). */
  private readonly seen = new Set<string>();

  constructor(private readonly maxEntries = 100) {}

  /** The cached response for `key`, if it was stored at `version` (or without one). */
  lookup(key: string, version = ''): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.version !== version) {
      // Out of date, but asked for again: its next version is kept at once.
      this.entries.delete(key);
      this.seen.add(key);
      return undefined;
    }
    return entry;
  }

  /** Stores a body for `key` at `version`, computing its ETag. */
  store(key: string, body: Buffer | string, version = ''): CachedResponse {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const response = { body: bytes, etag: strongEtag(bytes) };
    this.remember(key, response, version);
    return response;
  }

  /** Stores a response whose ETag is already known. */
  remember(key: string, response: CachedResponse, version = ''): void {
    if (!this.entries.has(key) && !this.seen.delete(key)) {
      this.seen.add(key);
      if (this.seen.size > this.maxEntries * 4) evictOldest(this.seen, this.maxEntries);
      return;
    }
    this.entries.set(key, { ...response, version });
    if (this.entries.size > this.maxEntries) evictOldest(this.entries, Math.ceil(this.maxEntries / 4));
  }

  delete(key: string): void {
    if (this.entries.delete(key)) this.seen.add(key);
  }
}
