import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deskProof, pairingNonce, stretchTypedCode } from '../../platform/typed-pairing';
import { openServerContext, type ServerContext } from '../server-context';
import { ApiError } from './api-error';
import {
  PAIRING_CODE_TTL_MS,
  pairedKeyName,
  TYPED_CODE_TRIES,
  TYPED_CODE_TRIES_IN_ALL,
} from './pairing-store';

let app: ServerContext;
let now = 1_800_000_000_000;

beforeEach(async () => {
  now = 1_800_000_000_000;
  app = await openServerContext(':memory:', () => now);
});
afterEach(async () => {
  await app.close();
});

/** The SHA-256 of a certificate, as the sharing card's listener gives it. */
const FINGERPRINT = 'ab'.repeat(32);

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, code: error.code, message: error.message, hint: error.extras.hint };
    throw error;
  }
  throw new Error('not refused');
};

describe('PairingCodes', () => {
  it('exchanges a code once for an active write key named after the desk; only a hash is stored', () => {
    const { secret, typedCode, expiresAt } = app.pairing.create(FINGERPRINT);
    expect(expiresAt).toBe(now + PAIRING_CODE_TTL_MS);
    const stored = JSON.stringify(app.sqlite.prepare('SELECT * FROM pairing_codes').all());
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(typedCode);
    expect(app.pairing.isOpen(secret)).toBe(true);
    const paired = app.pairing.redeem(secret, '  Front   desk ');
    expect(paired.name).toBe('Desk: Front desk');
    expect(app.keys.authenticate(paired.key)).toEqual({ id: paired.id, access: 'write' });
    expect(app.keys.list().find((key) => key.id === paired.id)?.label).toBe('Desk: Front desk');
    expect(app.pairing.isOpen(secret)).toBe(false);
    const again = refusal(() => app.pairing.redeem(secret, 'Other desk'));
    expect(again).toMatchObject({ status: 410, code: 'pairing_code_used' });
    expect(again.hint).toMatch(/new pairing code/);
  });

  it('refuses a code after 15 minutes, an unknown one and a cancelled one, each saying to ask for a new code', () => {
    const { secret } = app.pairing.create(FINGERPRINT);
    now += PAIRING_CODE_TTL_MS;
    const expired = refusal(() => app.pairing.redeem(secret, 'Desk'));
    expect(expired).toMatchObject({ status: 410, code: 'pairing_code_expired' });
    expect(expired.hint).toMatch(/new pairing code/);
    expect(refusal(() => app.pairing.redeem('x'.repeat(22), 'Desk'))).toMatchObject({
      status: 401,
      code: 'pairing_code_invalid',
    });
    const cancelled = app.pairing.create(FINGERPRINT);
    app.pairing.cancel(cancelled.secret);
    expect(refusal(() => app.pairing.redeem(cancelled.secret, 'Desk'))).toMatchObject({
      code: 'pairing_code_expired',
    });
    expect(app.keys.activeCount).toBe(0);
  });

  it('names a desk with no usable name', () => {
    expect(pairedKeyName('   ')).toBe('Desk: unnamed desk');
    expect(pairedKeyName('x'.repeat(200)).length).toBeLessThanOrEqual(80);
  });

  it(`takes ${TYPED_CODE_TRIES} wrong typed codes from one address: it is refused then, every other address is not, and ${TYPED_CODE_TRIES_IN_ALL} in all end the code`, () => {
    const { typedCode, secret } = app.pairing.create(FINGERPRINT);
    /** A desk's try at `code` from `address` over a connection that showed the card's certificate. */
    const tryCode = (code: string, address: string) => {
      const nonce = pairingNonce();
      const proof = deskProof(stretchTypedCode(code, FINGERPRINT), nonce);
      return () => app.pairing.redeemTyped(nonce, proof, 'Event laptop', FINGERPRINT, address);
    };
    const wrong = `${typedCode.startsWith('2') ? '3' : '2'}${typedCode.slice(1)}`;

    const messages: string[] = [];
    for (let attempt = 0; attempt < TYPED_CODE_TRIES; attempt += 1) {
      const refused = refusal(tryCode(wrong, '192.168.1.66'));
      expect(refused).toMatchObject({ status: 401, code: 'pairing_code_invalid' });
      expect(refused.hint).toMatch(/Check the letters and the address against the sharing card/);
      messages.push(refused.message);
    }
    // The last tries say how many are left.
    expect(messages).toEqual([
      'This code is not one the shelter desk shows now.',
      'This code is not one the shelter desk shows now.',
      'This code is not one the shelter desk shows now. This computer can try twice more with the shelter desk’s current code.',
      'This code is not one the shelter desk shows now. This computer can try once more with the shelter desk’s current code.',
      'This code is not one the shelter desk shows now. That was this computer’s last try at the shelter desk’s current code.',
    ]);
    // The address out of tries is refused even the right code, and told to ask for a new one; so is the same
    // address in its IPv6 form (a listener on both families).
    const locked = refusal(tryCode(typedCode, '192.168.1.66'));
    expect(locked).toMatchObject({ status: 401, code: 'pairing_code_locked' });
    expect(locked.message).toBe(
      `This computer typed ${TYPED_CODE_TRIES} wrong codes, so the shelter desk takes no more from it for its current code.`,
    );
    expect(locked.hint).toMatch(/Make a new code/);
    expect(refusal(tryCode(typedCode, '::ffff:192.168.1.66'))).toMatchObject({ code: 'pairing_code_locked' });
    // Its tries did not end the code: another address pairs with it.
    expect(app.pairing.isOpen(secret)).toBe(true);
    expect(tryCode(typedCode, '192.168.1.20')().name).toBe('Desk: Event laptop');

    // Wrong codes from many addresses end a code once they reach the limit in all, both its forms.
    const next = app.pairing.create(FINGERPRINT);
    const wrongNext = `${next.typedCode.startsWith('2') ? '3' : '2'}${next.typedCode.slice(1)}`;
    for (let attempt = 0; attempt < TYPED_CODE_TRIES_IN_ALL - 1; attempt += 1) {
      refusal(tryCode(wrongNext, `10.0.0.${Math.floor(attempt / TYPED_CODE_TRIES) + 1}`));
    }
    expect(app.pairing.isOpen(next.secret)).toBe(true);
    refusal(tryCode(wrongNext, '10.0.0.99'));
    expect(app.pairing.isOpen(next.secret)).toBe(false);
    expect(refusal(tryCode(next.typedCode, '10.0.0.100'))).toMatchObject({ code: 'pairing_code_invalid' });
    expect(refusal(() => app.pairing.redeem(next.secret, 'Desk'))).toMatchObject({
      code: 'pairing_code_expired',
    });
  });
});
