import { strongEtag } from './etag';

export interface CachedResponse {
  bytes: Buffer;
  etag: string;
}

/**
 * Encoded response bodies with their ETags, for GETs whose body is a pure function of the query and a data
 * version (e.g. list pages between two pet writes). Any version change empties the cache; the size bound
 * keeps a 100-pet page cache around 15 MB.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private version = '';

  constructor(private readonly maxEntries = 100) {}

  /** The cached response for `key` at `version`, rendering and storing it on a miss. */
  get(key: string, version: string, render: () => string): CachedResponse {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit) return hit;
    const bytes = Buffer.from(render());
    const response = { bytes, etag: strongEtag(bytes) };
    this.entries.set(key, response);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return response;
  }
}
