import { type ApiClient, ApiError } from '../client';
import { type MirrorDb, readHttpCache, storeMetadata, writeHttpCache } from '../mirror';
import { METADATA_DOCUMENTS } from './collections';

export interface MetadataPullResult {
  requests: number;
  notModified: number;
  changed: string[];
  /** Documents that failed validation: reported, not stored (the stored copy stays). */
  problems: string[];
  /** Documents skipped because their hourly request limit is used up (the stored copy stays). */
  deferred: string[];
}

/**
 * Refreshes custom field metadata, fee rules and the four contract texts, each conditionally with its ETag.
 * These endpoints have small hourly limits (50), so callers refresh them far less often than the lists.
 */
export async function pullMetadata(
  db: MirrorDb,
  client: ApiClient,
  signal?: AbortSignal,
): Promise<MetadataPullResult> {
  const result: MetadataPullResult = { requests: 0, notModified: 0, changed: [], problems: [], deferred: [] };
  for (const document of METADATA_DOCUMENTS) {
    const cached = readHttpCache(db, document.path);
    let response: Awaited<ReturnType<typeof client.get<unknown>>>;
    try {
      response = await client.get(document.path, {
        schema: document.schema,
        etag: cached?.etag,
        ...(signal && { signal }),
      });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'rate-limited') {
        // These endpoints allow 50 requests an hour: keep the stored copies and try again on a later run.
        result.deferred.push(document.key);
        continue;
      }
      if (!(error instanceof ApiError) || (error.kind !== 'invalid-response' && error.kind !== 'rejected'))
        throw error;
      result.requests += 1;
      result.problems.push(
        `${document.key}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`,
      );
      continue;
    }
    result.requests += 1;
    if (response.status === 304) {
      result.notModified += 1;
      continue;
    }
    if (response.status !== 200) continue;
    const body = response.body;
    const fetchedAt = response.generatedAt ?? new Date().toISOString();
    db.transaction(() => {
      if (storeMetadata(db, document.key, body, fetchedAt)) result.changed.push(document.key);
      if (response.etag) writeHttpCache(db, document.path, 'metadata', response.etag, {});
    })();
  }
  return result;
}
