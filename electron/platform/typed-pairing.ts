import { createHmac, randomBytes, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';
import { TYPED_CODE_ALPHABET, TYPED_CODE_LENGTH } from '../../shared/desk-api';

/**
 * The proofs of a typed pairing code: eight letters and digits a person reads off one desk and types on another,
 * in place of the pasted code's certificate fingerprint and 128-bit secret.
 *
 * Both ends stretch the code with the certificate the connection between them shows (scrypt, salted with its
 * SHA-256): the shelter with the certificate it presented, the joining desk with the one it was shown. The desk
 * proves it knows the code with an HMAC of a fresh nonce; the shelter answers with an HMAC over the same nonce and
 * the key it issues. A machine in the middle shows its own certificate, so the desk's proof is for that certificate
 * and the shelter refuses it, and it cannot answer the desk without the code: to find the code it would have to
 * stretch every one of the 2^40 codes, 15 minutes being the code's whole life.
 */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 };

/** A new code, for instance `K7QM4TXP` (show it with `formatTypedCode`). */
export function newTypedCode(): string {
  let code = '';
  for (let index = 0; index < TYPED_CODE_LENGTH; index += 1) {
    code += TYPED_CODE_ALPHABET[randomInt(TYPED_CODE_ALPHABET.length)];
  }
  return code;
}

/** What a code stretches to with a certificate (its SHA-256, base64url): the key of both proofs. */
export function stretchTypedCode(code: string, fingerprint: string): Buffer {
  return scryptSync(code, `shelter-desk-typed-pairing:${fingerprint}`, 32, SCRYPT);
}

/** A fresh nonce for the desk's proof (base64url). */
export function pairingNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** The desk's proof that it knows the code, for a nonce of its own. */
export function deskProof(stretched: Buffer, nonce: string): string {
  return createHmac('sha256', stretched).update(`desk:${nonce}`).digest('base64url');
}

/** The shelter's proof that it knows the code too, over the desk's nonce and the key it gives the desk. */
export function shelterProof(stretched: Buffer, nonce: string, key: string): string {
  return createHmac('sha256', stretched).update(`shelter:${nonce}:${key}`).digest('base64url');
}

/** Whether two proofs are the same (in constant time). */
export function sameProof(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
