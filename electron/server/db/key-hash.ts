import { createHash, createHmac, randomBytes } from 'node:crypto';

/** SHA-256 of a key (the value databases before migration 0501 stored; the salted hash is built on it). */
export function sha256Digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * What the database stores for an API key: HMAC-SHA-256 keyed by the key's own random salt over the key's
 * SHA-256 digest, hex. The per-key salt means equal keys never share a stored value and no precomputed
 * table applies; layering it on SHA-256 let migration 0501 salt the digests older databases held.
 */
export function saltedKeyHash(salt: string, digest: Buffer): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(digest).digest('hex');
}

/** A fresh per-key salt, hex. */
export function newKeySalt(): string {
  return randomBytes(16).toString('hex');
}
