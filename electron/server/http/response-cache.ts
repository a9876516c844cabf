import { evictOldest } from '../domain/evict-oldest';
import { strongEtag } from './etag';

export interface CachedResponse {
  bytes: Buffer;
  etag: string;
}

/**
 * Encoded response bodies with their ETags, for GETs whose body is a pure function of the query and a data
 * version (list pages or single pets between two pet writes). Any version change empties the cache; the
 * size bound limits memory (100 list pages or 10,000 pets are about 14 MB).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private version = '';

  constructor(private readonly maxEntries = 100) {}

  /** The cached response for `key` at `version`, rendering and storing it on a miss. */
  get(key: string, version: string, render: () => string): CachedResponse {
    return this.lookup(key, version) ?? this.store(key, render());
  }

  /** The cached response for `key` at `version`, if any. */
  lookup(key: string, version: string): CachedResponse | undefined {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    return this.entries.get(key);
  }

  /** Stores a body for `key` at the version of the last lookup. */
  store(key: string, body: string): CachedResponse {
    const bytes = Buffer.from(body);
    const response = { bytes, etag: strongEtag(bytes) };
    this.entries.set(key, response);
    if (this.entries.size > this.maxEntries) evictOldest(this.entries, Math.ceil(this.maxEntries / 4));
    return response;
  }
}
