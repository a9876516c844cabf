/**
 * Connection codes: one string a second desk pastes (or a script passes to `sync --code`) to join a shelter.
 *
 * - Pairing code (current): `shelterdesk:https://ADDRESS/api#pin=FINGERPRINT&pair=SECRET`. FINGERPRINT is the
 *   SHA-256 of the shelter's certificate (base64url), which the desk pins; SECRET is a one-time pairing secret that
 *   works once, for 15 minutes, and is exchanged over that pinned connection for a key of the desk's own.
 * - Typed code: `ADDRESS CODE`, for instance `192.168.1.20:8787 K7QM-4TXP`, what a person reads off the sharing card
 *   and types on another computer. CODE is eight letters and digits (no I, L, O or U: each reads as one only); the
 *   desk proves it knows it over TLS to the certificate it is shown, and the shelter proves it back (see
 *   electron/platform/typed-pairing.ts), so no fingerprint needs typing.
 * - Key code (older desks): `shelterdesk:http://ADDRESS/api#WRITE-KEY`. Still accepted.
 */
export const CONNECTION_CODE_PREFIX = 'shelterdesk:';

export type ConnectionCode =
  | { kind: 'key'; remote: string; apiKey: string }
  | { kind: 'pairing'; remote: string; fingerprint: string; secret: string }
  | { kind: 'typed'; remote: string; code: string };

/** The letters and digits of a typed code (Crockford's base 32): 8 of them are 40 bits. */
export const TYPED_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TYPED_CODE_LENGTH = 8;

/** A typed code as the card shows it: `K7QM-4TXP`. */
export function formatTypedCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * A typed code as people type it, in the card's letters: any case, spaces and dashes dropped, O read as 0 and I or L
 * as 1. Undefined when it is not eight of the card's letters and digits.
 */
export function normalizeTypedCode(text: string): string | undefined {
  const code = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== TYPED_CODE_LENGTH) return undefined;
  return [...code].every((character) => TYPED_CODE_ALPHABET.includes(character)) ? code : undefined;
}

/** The sharing card's line to type on another desk: the address without its scheme and path, then the code. */
export function formatTypedConnection(apiUrl: string, code: string): string {
  const host = apiUrl.replace(/^https:\/\//, '').replace(/\/api$/, '');
  return `${host} ${formatTypedCode(code)}`;
}

/**
 * `ADDRESS CODE` as typed: an address (with or without https:// and /api; always https, where a shelter shares) and,
 * after a space, the code. Undefined when the text is not that.
 */
function parseTypedConnection(text: string): ConnectionCode | undefined {
  const match = /^(\S+)\s+([\w\s-]+)$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const code = normalizeTypedCode(match[2]);
  const host = match[1].replace(/^https:\/\//i, '').replace(/\/(api\/?)?$/i, '');
  if (!code || !/^[\w.-]+(:\d{1,5})?$|^\[[\d:a-fA-F]+\](:\d{1,5})?$/.test(host)) return undefined;
  return { kind: 'typed', remote: `https://${host}/api`, code };
}

/** A SHA-256 in base64url: 43 characters. */
const FINGERPRINT_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const SECRET_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/** The older code: address and write key. */
export function formatConnectionCode(apiUrl: string, key: string): string {
  return `${CONNECTION_CODE_PREFIX}${apiUrl}#${key}`;
}

/** A pairing code: the https address, the certificate's fingerprint and the one-time secret. */
export function formatPairingCode(apiUrl: string, fingerprint: string, secret: string): string {
  return `${CONNECTION_CODE_PREFIX}${apiUrl}#pin=${fingerprint}&pair=${secret}`;
}

/** What a connection code holds, or undefined when the text is not one. */
export function parseConnectionCode(text: string): ConnectionCode | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith(CONNECTION_CODE_PREFIX)) return parseTypedConnection(trimmed);
  const rest = trimmed.slice(CONNECTION_CODE_PREFIX.length);
  const hash = rest.lastIndexOf('#');
  if (hash <= 0) return undefined;
  const remote = rest.slice(0, hash);
  const fragment = rest.slice(hash + 1);
  if (fragment.startsWith('pin=')) {
    const params = new URLSearchParams(fragment);
    const fingerprint = params.get('pin') ?? '';
    const secret = params.get('pair') ?? '';
    if (!/^https:\/\/[^\s#]+$/.test(remote)) return undefined;
    if (!FINGERPRINT_SHAPE.test(fingerprint) || !SECRET_SHAPE.test(secret)) return undefined;
    return { kind: 'pairing', remote, fingerprint, secret };
  }
  if (!/^https?:\/\/[^\s#]+$/.test(remote) || !/^[\w-]{8,200}$/.test(fragment)) return undefined;
  return { kind: 'key', remote, apiKey: fragment };
}

/**
 * A fingerprint as two people compare it aloud: the SHA-256 in hexadecimal, 16 groups of 4 characters
 * (`4F2A 91C3 …`), the same on both desks' screens and in `share status`.
 */
export function fingerprintGroups(fingerprint: string): string[] {
  const binary = atob(fingerprint.replaceAll('-', '+').replaceAll('_', '/'));
  let hex = '';
  for (let index = 0; index < binary.length; index += 1) {
    hex += binary.charCodeAt(index).toString(16).padStart(2, '0').toUpperCase();
  }
  return hex.match(/.{1,4}/g) ?? [];
}

/** `fingerprintGroups` joined with spaces, for one line of text. */
export function formatFingerprint(fingerprint: string): string {
  return fingerprintGroups(fingerprint).join(' ');
}
