import { evictOldest } from './evict-oldest';

/** Wrong keys an address may present (within FORGET_MS of each other) before it has to wait. */
export const FREE_FAILURES = 10;
/** The first wait; each further failure doubles it, up to MAX_BLOCK_MS. */
const FIRST_BLOCK_MS = 1000;
const MAX_BLOCK_MS = 15 * 60 * 1000;
/** An address that presents no wrong key for this long starts afresh. */
const FORGET_MS = 15 * 60 * 1000;
/** Addresses remembered at once; the oldest are forgotten first (bounds memory under a spray of addresses). */
const MAX_ADDRESSES = 10_000;

interface Failures {
  count: number;
  lastAt: number;
  blockedUntil: number;
}

/**
 * Slows down guessing of API keys: failed key checks are counted per client address, and after
 * FREE_FAILURES (by default) an address must wait before its next key is even looked at, twice as long after each
 * further failure (1 s, 2 s, 4 s … 15 min). Other addresses are not affected. IPv6 clients are counted per
 * /64, the block a single host usually controls.
 */
export class AuthThrottle {
  private readonly byAddress = new Map<string, Failures>();

  constructor(private readonly freeFailures = FREE_FAILURES) {}

  /** Seconds the address must still wait (for `Retry-After`), or 0 when its key may be checked now. */
  waitSeconds(address: string, nowMs: number): number {
    const entry = this.byAddress.get(bucketOf(address));
    if (!entry || entry.blockedUntil <= nowMs) return 0;
    return Math.max(1, Math.ceil((entry.blockedUntil - nowMs) / 1000));
  }

  /** Records a wrong key from the address; returns the wait it now has, in seconds (0: none yet). */
  fail(address: string, nowMs: number): number {
    const bucket = bucketOf(address);
    let entry = this.byAddress.get(bucket);
    if (!entry || nowMs - entry.lastAt > FORGET_MS) entry = { count: 0, lastAt: nowMs, blockedUntil: 0 };
    entry.count++;
    entry.lastAt = nowMs;
    if (entry.count >= this.freeFailures) {
      const doublings = Math.min(entry.count - this.freeFailures, 20);
      entry.blockedUntil = nowMs + Math.min(MAX_BLOCK_MS, FIRST_BLOCK_MS * 2 ** doublings);
    }
    // Re-insert so the map's order is least recently failed first.
    this.byAddress.delete(bucket);
    this.byAddress.set(bucket, entry);
    if (this.byAddress.size > MAX_ADDRESSES) evictOldest(this.byAddress, MAX_ADDRESSES / 10);
    return this.waitSeconds(address, nowMs);
  }
}

/** The counting bucket of an address: IPv4 as is, IPv6 by its first four groups (/64). */
export function bucketOf(address: string): string {
  const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
