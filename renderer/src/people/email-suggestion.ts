import { editDistanceWithin } from '../../../shared/search/typo';

/** Mail providers people type at a sign-up desk most, whose misspellings are worth pointing out. */
const COMMON_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'ymail.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'protonmail.com',
  'proton.me',
  'yahoo.co.uk',
  'hotmail.co.uk',
  'btinternet.com',
  'gmx.com',
  'gmx.de',
  'web.de',
];

/**
 * The address with its provider spelled as it most likely was meant (`rosa@gmial.com` → `rosa@gmail.com`), or
 * undefined when the provider is not a near miss of a common one: a slip of one letter (two in a longer name),
 * swapped letters included. Only a suggestion: a shelter's own domain is never changed.
 */
export function suggestedEmail(email: string): string | undefined {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (domain.length < 4 || COMMON_DOMAINS.includes(domain)) return undefined;
  const allowed = domain.length < 9 ? 1 : 2;
  let best: { domain: string; distance: number } | undefined;
  for (const known of COMMON_DOMAINS) {
    const distance = editDistanceWithin(domain, known, allowed);
    if (distance !== undefined && (!best || distance < best.distance)) best = { domain: known, distance };
  }
  return best ? `${trimmed.slice(0, at)}@${best.domain}` : undefined;
}
