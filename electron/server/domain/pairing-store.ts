import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  deskProof,
  newTypedCode,
  sameProof,
  shelterProof,
  stretchTypedCode,
} from '../../platform/typed-pairing';
import { ApiError } from './api-error';
import type { ApiKeyRegistry } from './api-key-store';

/** How long a pairing code can be used after it was made. */
export const PAIRING_CODE_TTL_MS = 15 * 60_000;
/** Codes used or expired this long ago are deleted when the next one is made. */
const KEEP_OLD_CODES_MS = 24 * 60 * 60_000;
/**
 * Wrong typed codes one client address may send while a code is open: after them the code refuses that address (a
 * guess has 1 in 2^40 of being right) and stays good for every other one, so a computer typing from its own address
 * cannot end the code on the card by itself.
 */
export const TYPED_CODE_TRIES = 5;
/** Wrong typed codes from all addresses together that end an open code (both forms), whoever sent them. */
export const TYPED_CODE_TRIES_IN_ALL = 25;

const ASK_AGAIN = 'Ask the shelter desk for a new pairing code (Keys and sharing → Make a new code).';

interface PairingRow {
  id: string;
  expires_at: number;
  used_at: number | null;
}

interface TypedRow {
  id: string;
  typed_key: string;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The key's name in the Keys list: the desk's own name, so staff can tell desks apart and revoke one alone. */
export function pairedKeyName(deskName: string): string {
  const name = deskName.replace(/\s+/g, ' ').trim().slice(0, 72) || 'unnamed desk';
  return `Desk: ${name}`;
}

/**
 * One-time pairing codes: a second desk exchanges one, once and within 15 minutes, for a write key of its own.
 * Only a SHA-256 of each secret is stored (the secrets are 128 random bits, so no salt or stretching is needed).
 * A code made for a certificate has a typed form too (eight letters and digits, see platform/typed-pairing.ts), of
 * which only its stretch with that certificate is stored; either form redeems the code, once.
 */
export class PairingCodes {
  /**
   * Wrong typed codes per open code and client address. In memory: a restart forgets them, while the count of all
   * the wrong ones (`typed_failures`), which ends the code, is stored.
   */
  private readonly wrongFrom = new Map<string, Map<string, number>>();

  /**
   * The shelter's name as its own desk has it ('' when unknown, as on `npm run serve`): a paired desk takes it for
   * its prints when it has none of its own.
   */
  shelterName: () => string = () => '';

  constructor(
    private readonly sqlite: Database.Database,
    private readonly keys: ApiKeyRegistry,
    private readonly now: () => number,
  ) {}

  /**
   * A new code's secret and its typed form for desks shown the certificate of fingerprint `typedFor` (both shown
   * once), and when it stops working (ms since epoch).
   */
  create(typedFor: string): { secret: string; typedCode: string; expiresAt: number } {
    const now = Math.floor(this.now());
    const secret = randomBytes(16).toString('base64url');
    const typedCode = newTypedCode();
    const typedKey = stretchTypedCode(typedCode, typedFor);
    const expiresAt = now + PAIRING_CODE_TTL_MS;
    this.sqlite.transaction(() => {
      this.sqlite
        .prepare('DELETE FROM pairing_codes WHERE MAX(expires_at, COALESCE(used_at, 0)) < ?')
        .run(now - KEEP_OLD_CODES_MS);
      this.sqlite
        .prepare(
          `INSERT INTO pairing_codes (id, secret_hash, created_at, expires_at, typed_key, typed_fingerprint)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(randomUUID(), hashOf(secret), now, expiresAt, typedKey.toString('base64url'), typedFor);
    })();
    return { secret, typedCode, expiresAt };
  }

  /** Whether a code can still be used (not used, not expired, not cancelled). */
  isOpen(secret: string): boolean {
    const row = this.sqlite
      .prepare('SELECT id, expires_at, used_at FROM pairing_codes WHERE secret_hash = ?')
      .get(hashOf(secret)) as PairingRow | undefined;
    return row !== undefined && row.used_at === null && row.expires_at > this.now();
  }

  /** Ends a code that was not used (a new one replaces it on the sharing card). */
  cancel(secret: string): void {
    this.sqlite
      .prepare(
        'UPDATE pairing_codes SET expires_at = MIN(expires_at, ?) WHERE secret_hash = ? AND used_at IS NULL',
      )
      .run(Math.floor(this.now()), hashOf(secret));
  }

  /**
   * Exchanges a code's secret for a new write key named after the desk; call inside a write transaction (the
   * code is marked used in the same commit as the key is stored, so it works once even under a race).
   * @throws ApiError 401 for an unknown secret, 410 for one used or expired, each saying to ask for a new code.
   */
  redeem(secret: string, deskName: string): { id: string; key: string; name: string } {
    const now = Math.floor(this.now());
    const row = this.sqlite
      .prepare('SELECT id, expires_at, used_at FROM pairing_codes WHERE secret_hash = ?')
      .get(hashOf(secret)) as PairingRow | undefined;
    if (!row) {
      throw new ApiError(401, 'pairing_code_invalid', 'This pairing code is not known to the shelter.', {
        hint: ASK_AGAIN,
      });
    }
    if (row.used_at !== null) {
      throw new ApiError(410, 'pairing_code_used', 'This pairing code was already used by a desk.', {
        hint: `A code works once. ${ASK_AGAIN}`,
      });
    }
    if (row.expires_at <= now) {
      throw new ApiError(410, 'pairing_code_expired', 'This pairing code has expired.', {
        hint: `A code works for 15 minutes. ${ASK_AGAIN}`,
      });
    }
    return this.issueKey(row.id, deskName, now);
  }

  /**
   * Exchanges a typed code for a new write key: `proof` is the desk's HMAC of `nonce` with the code stretched by the
   * certificate it was shown, checked against every open code made for `fingerprint`, the certificate this
   * connection presented, except those `address` (the client's) already sent TYPED_CODE_TRIES wrong codes to. Call
   * inside a write transaction, as `redeem`.
   * @returns the key, and the shelter's proof over the nonce and the key for the desk to check.
   * @throws ApiError 401 `pairing_code_invalid` when no open code matches (a machine in the middle included), and
   * `pairing_code_locked` when the address is out of tries; after TYPED_CODE_TRIES_IN_ALL refusals from all
   * addresses an open typed code ends, and the card shows a new one.
   */
  redeemTyped(
    nonce: string,
    proof: string,
    deskName: string,
    fingerprint: string | undefined,
    address: string,
  ): { id: string; key: string; name: string; proof: string } {
    const now = Math.floor(this.now());
    const open = this.sqlite
      .prepare(
        `SELECT id, typed_key FROM pairing_codes
         WHERE typed_fingerprint = ? AND used_at IS NULL AND expires_at > ?`,
      )
      .all(fingerprint ?? '', now) as TypedRow[];
    this.forgetClosedCodes(now);
    const client = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    const hasTries = (row: TypedRow) => (this.wrongFrom.get(row.id)?.get(client) ?? 0) < TYPED_CODE_TRIES;
    const tryable = open.filter(hasTries);
    for (const row of tryable) {
      const stretched = Buffer.from(row.typed_key, 'base64url');
      if (!sameProof(deskProof(stretched, nonce), proof)) continue;
      const created = this.issueKey(row.id, deskName, now);
      return { ...created, proof: shelterProof(stretched, nonce, created.key) };
    }
    if (open.length > 0 && tryable.length === 0) {
      throw new ApiError(
        401,
        'pairing_code_locked',
        `This computer typed ${TYPED_CODE_TRIES} wrong codes, so the shelter desk takes no more from it for its current code.`,
        { hint: ASK_AGAIN },
      );
    }
    // Every code this address could still try counts the wrong one; the one that reaches the limit ends, both forms.
    const countWrong = this.sqlite.prepare(
      `UPDATE pairing_codes SET typed_failures = typed_failures + 1,
         expires_at = CASE WHEN typed_failures + 1 >= ? THEN MIN(expires_at, ?) ELSE expires_at END
       WHERE id = ?`,
    );
    let triesLeft = TYPED_CODE_TRIES;
    for (const row of tryable) {
      const counts = this.wrongFrom.get(row.id) ?? new Map<string, number>();
      const wrong = (counts.get(client) ?? 0) + 1;
      counts.set(client, wrong);
      this.wrongFrom.set(row.id, counts);
      countWrong.run(TYPED_CODE_TRIES_IN_ALL, now, row.id);
      triesLeft = Math.min(triesLeft, TYPED_CODE_TRIES - wrong);
    }
    const warning =
      tryable.length === 0 || triesLeft > 2
        ? ''
        : triesLeft === 0
          ? ' That was this computer’s last try at the shelter desk’s current code.'
          : ` This computer can try ${triesLeft === 1 ? 'once more' : 'twice more'} with the shelter desk’s current code.`;
    throw new ApiError(
      401,
      'pairing_code_invalid',
      `This code is not one the shelter desk shows now.${warning}`,
      {
        hint: `Check the letters and the address against the sharing card (after ${TYPED_CODE_TRIES} wrong codes from one computer, the shelter desk takes no more from it for that code). ${ASK_AGAIN}`,
        commitWrites: true,
      },
    );
  }

  /** Drops the wrong tries counted for codes no longer open (used, expired, ended), whatever their certificate. */
  private forgetClosedCodes(now: number): void {
    if (this.wrongFrom.size === 0) return;
    const open = new Set(
      (
        this.sqlite
          .prepare(
            'SELECT id FROM pairing_codes WHERE used_at IS NULL AND expires_at > ? AND typed_key IS NOT NULL',
          )
          .all(now) as { id: string }[]
      ).map((row) => row.id),
    );
    for (const id of this.wrongFrom.keys()) if (!open.has(id)) this.wrongFrom.delete(id);
  }

  private issueKey(rowId: string, deskName: string, now: number): { id: string; key: string; name: string } {
    const name = pairedKeyName(deskName);
    const created = this.keys.create('write', name);
    this.sqlite
      .prepare('UPDATE pairing_codes SET used_at = ?, key_id = ? WHERE id = ?')
      .run(now, created.id, rowId);
    return { ...created, name };
  }
}
