import type { IncomingMessage } from 'node:http';

export type GuardVerdict = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * Checks that a request is meant for this host and comes from its own page:
 * - `Host` must be 127.0.0.1:PORT or localhost:PORT: a DNS-rebinding page reaches us under its own
 *   name, so its Host is foreign even though the socket is loopback.
 * - `Origin`, when present, must be the origin of that same Host (`new URL` parsed, so spelling tricks
 *   like trailing dots or userinfo do not pass).
 * - `Sec-Fetch-Site: cross-site` is refused even without an Origin.
 */
export function checkRequestOrigin(req: IncomingMessage, port: number): GuardVerdict {
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { ok: false, reason: `foreign Host ${JSON.stringify(host ?? '')}` };
  }
  const ownOrigin = `http://${host}`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return { ok: false, reason: 'unreadable Origin' };
    }
    if (origin === 'null' || parsed.origin !== ownOrigin || origin !== parsed.origin) {
      return { ok: false, reason: `foreign Origin ${JSON.stringify(origin)}` };
    }
  }
  if (req.headers['sec-fetch-site'] === 'cross-site') return { ok: false, reason: 'cross-site request' };
  return { ok: true, origin: ownOrigin };
}

/** Reads one cookie by name from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
