/** Facts of the wire protocol shared by the embedded server and the sync client. */
export const API_VERSION = '1.5.0';
export const API_PREFIX = '/api';
export const GET_CACHE_CONTROL = 'private, max-age=60, stale-while-revalidate=300';
export const WRITE_CACHE_CONTROL = 'no-store';
export const MAX_BODY_BYTES = 1024 * 1024;
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const API_KEY_HEADER = 'x-api-key';

export const METADATA_HEADERS = [
  'x-request-id',
  'x-api-version',
  'x-generated-at',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;
