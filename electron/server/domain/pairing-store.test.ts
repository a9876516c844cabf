import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerContext, type ServerContext } from '../server-context';
import { ApiError } from './api-error';
import { PAIRING_CODE_TTL_MS, pairedKeyName } from './pairing-store';

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
    if (error instanceof ApiError) return { status: error.status, code: error.code, hint: error.extras.hint };
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
    expect(again.hint).toMatch(/new connection code/);
  });

  it('refuses a code after 15 minutes, an unknown one and a cancelled one, each saying to ask for a new code', () => {
    const { secret } = app.pairing.create(FINGERPRINT);
    now += PAIRING_CODE_TTL_MS;
    const expired = refusal(() => app.pairing.redeem(secret, 'Desk'));
    expect(expired).toMatchObject({ status: 410, code: 'pairing_code_expired' });
    expect(expired.hint).toMatch(/new connection code/);
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
});
