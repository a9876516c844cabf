import { strongEtag } from '../domain/entity-tag';
import { evictOldest } from '../domain/evict-oldest';

export interface CachedResponse {
  bytes: Buffer;
  etag: string;
}

/**
 * Encoded response bodies with their ETags, each kept under the data version it was built from (a list
 * view's version) or until `delete` (a single pet that a write changed). Only what changed is dropped; the
 * size bound limits memory (200 list pages or 10,000 pets are a few tens of MB at most).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse & { version: string }>();

  constructor(private readonly maxEntries = 100) {}

  /** The cached response for `key`, if it was stored at `version` (or without one). */
  lookup(key: string, version = ''): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores a body for `key` at `version`, computing its ETag. */
  store(key: string, body: Buffer | string, version = ''): CachedResponse {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const response = { bytes, etag: strongEtag(bytes) };
    this.remember(key, response, version);
    return response;
  }

  /** Stores a response whose ETag is already known. */
  remember(key: string, response: CachedResponse, version = ''): void {
    this.entries.set(key, { ...response, version });
    if (this.entries.size > this.maxEntries) evictOldest(this.entries, Math.ceil(this.maxEntries / 4));
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
