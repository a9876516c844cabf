import { createHash } from 'node:crypto';

/** Strong entity tag of the exact response body bytes (stored with each pet body, computed for pages). */
export function strongEtag(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
