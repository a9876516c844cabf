import type Database from 'better-sqlite3';
import { PHOTO_PATH_PATTERN } from '../../../shared/contract';
import type { ProcessedPhoto } from '../../platform/photo-image';

/** How long a photo no pet names is kept (from its upload, and from when a sweep first found it unnamed). */
export const PHOTO_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredPhoto {
  sha256: string;
  contentType: string;
  bytes: Buffer;
}

/** Every stored-photo hash named in a pet's `image_urls` (a JSON array of addresses, as the pets table keeps it). */
const HASH_IN_TEXT = new RegExp(PHOTO_PATH_PATTERN.source.replace('$', '(?=[?#"])'), 'g');

/**
 * The shelter's uploaded photos, by the SHA-256 of their bytes: the same photo uploaded twice is stored once, so a
 * retried upload never makes a second copy. A photo stays while a pet names it; one no pet names is deleted by
 * `sweep` once its upload and its first sweep without a pet are both PHOTO_GRACE_MS old (the upload comes before
 * the pet write that names it, and that write may wait on an offline desk).
 */
export class PhotoStore {
  private readonly insert: Database.Statement;
  private readonly byHash: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.insert = sqlite.prepare(
      `INSERT INTO photos (sha256, content_type, bytes, width, height, uploaded_at, unreferenced_since)
       VALUES (?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT (sha256) DO UPDATE SET uploaded_at = excluded.uploaded_at, unreferenced_since = NULL`,
    );
    this.byHash = sqlite.prepare('SELECT sha256, content_type, bytes FROM photos WHERE sha256 = ?');
  }

  /** Stores a processed photo (or renews the grace of the same photo uploaded again). Call in a write transaction. */
  put(photo: ProcessedPhoto, now: number): void {
    this.insert.run(photo.sha256, photo.mime, photo.bytes, photo.width, photo.height, now);
  }

  get(sha256: string): StoredPhoto | undefined {
    const row = this.byHash.get(sha256) as
      | { sha256: string; content_type: string; bytes: Buffer }
      | undefined;
    return row && { sha256: row.sha256, contentType: row.content_type, bytes: row.bytes };
  }

  /** The hashes of stored photos some pet (not deleted) names in its `image_urls`, whatever the origin. */
  private namedHashes(): Set<string> {
    const named = new Set<string>();
    const rows = this.sqlite
      .prepare(`SELECT image_urls FROM pets WHERE deleted_at IS NULL AND image_urls LIKE '%/api/photos/%'`)
      .raw()
      .iterate() as Iterable<[string]>;
    for (const [urls] of rows) for (const match of urls.matchAll(HASH_IN_TEXT)) named.add(match[1] as string);
    return named;
  }

  /**
   * Marks photos no pet names, clears the mark of those named again, and deletes those unnamed and uploaded for
   * longer than `graceMs`. One write transaction; returns how many were deleted.
   */
  sweep(now: number, graceMs = PHOTO_GRACE_MS): number {
    return this.sqlite.transaction(() => {
      const named = this.namedHashes();
      const rows = this.sqlite
        .prepare('SELECT sha256, uploaded_at, unreferenced_since FROM photos')
        .all() as Array<{ sha256: string; uploaded_at: number; unreferenced_since: number | null }>;
      const mark = this.sqlite.prepare('UPDATE photos SET unreferenced_since = ? WHERE sha256 = ?');
      const remove = this.sqlite.prepare('DELETE FROM photos WHERE sha256 = ?');
      let deleted = 0;
      for (const row of rows) {
        if (named.has(row.sha256)) {
          if (row.unreferenced_since !== null) mark.run(null, row.sha256);
          continue;
        }
        if (row.unreferenced_since === null) {
          mark.run(now, row.sha256);
          continue;
        }
        if (now - row.unreferenced_since >= graceMs && now - row.uploaded_at >= graceMs) {
          remove.run(row.sha256);
          deleted += 1;
        }
      }
      return deleted;
    })();
  }
}
