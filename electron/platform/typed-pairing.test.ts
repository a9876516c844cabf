import { describe, expect, it } from 'vitest';
import { normalizeTypedCode } from '../../shared/desk-api';
import {
  deskProof,
  newTypedCode,
  pairingNonce,
  sameProof,
  shelterProof,
  stretchTypedCode,
} from './typed-pairing';

describe('typed pairing proofs', () => {
  it('makes codes of the card’s eight letters and digits, different each time', () => {
    const codes = new Set(Array.from({ length: 50 }, newTypedCode));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(normalizeTypedCode(code)).toBe(code);
  });

  it('proves the code only for the same certificate, nonce and key', () => {
    const code = newTypedCode();
    const shelter = stretchTypedCode(code, 'shelter-certificate');
    const nonce = pairingNonce();
    expect(
      sameProof(deskProof(stretchTypedCode(code, 'shelter-certificate'), nonce), deskProof(shelter, nonce)),
    ).toBe(true);
    // A machine in the middle shows the desk its own certificate: the desk's proof is then for that one.
    expect(
      sameProof(deskProof(stretchTypedCode(code, 'listener-certificate'), nonce), deskProof(shelter, nonce)),
    ).toBe(false);
    expect(sameProof(deskProof(shelter, pairingNonce()), deskProof(shelter, nonce))).toBe(false);
    expect(
      sameProof(
        deskProof(stretchTypedCode(newTypedCode(), 'shelter-certificate'), nonce),
        deskProof(shelter, nonce),
      ),
    ).toBe(false);
    // The shelter's answer covers the key it gives: another key, or the desk's own proof sent back, is no answer.
    expect(
      sameProof(shelterProof(shelter, nonce, 'sd_w_one'), shelterProof(shelter, nonce, 'sd_w_two')),
    ).toBe(false);
    expect(sameProof(shelterProof(shelter, nonce, 'sd_w_one'), deskProof(shelter, nonce))).toBe(false);
  });
});
