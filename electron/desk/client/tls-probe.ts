import net from 'node:net';
import tls from 'node:tls';
import { buildConnector } from 'undici';
import { fingerprintOf } from './pinned-connect';

/**
 * Desks that joined a shelter before LAN sharing spoke TLS keep an `http://LAN-IP:PORT` address and the shelter's
 * shared write key. The shelter's LAN port now tells TLS from plain HTTP by the first byte of each connection, so
 * before such a desk sends its key it opens a TLS handshake on the same host and port: a port that answers TLS is
 * an updated shelter, and the desk moves to https there (see `ConnectionManager.resolve`). Every new plain
 * connection to such an address is checked the same way (`tlsGuardConnector`), so the key never goes out in plain
 * text to a port that speaks TLS, even between two syncs.
 */

/** What a TLS handshake on an address found. */
export type TlsProbe =
  /** TLS was spoken: the certificate's SHA-256 (base64url), the form pins take. */
  | { kind: 'tls'; fingerprint: string }
  /** The port answered, but not with TLS (an older Shelter Desk or another plain HTTP server). */
  | { kind: 'plain' }
  /** Nothing answered (offline, refused, timed out): nothing is known. */
  | { kind: 'unreachable' };

/** Errors that mean nothing answered at all, as opposed to a port that answered in something other than TLS. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
]);

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return net.isIPv4(bare) && bare.startsWith('127.');
}

/**
 * Whether a stored address is one to check for TLS before use: plain `http://` to another machine. Loopback is
 * left alone (the desk's own standalone server and `npm run serve` stay plain HTTP there, and nothing on loopback
 * crosses a network), except the host LAN sharing is told to bind with `SHELTER_DESK_LAN_HOST` (tests share on
 * 127.0.0.1, so an address there is a LAN sharing address).
 */
export function needsTlsCheck(remote: string, lanHost = process.env.SHELTER_DESK_LAN_HOST): boolean {
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !isLoopback(host) || (lanHost !== undefined && lanHost !== '' && host === lanHost);
}

/**
 * The same address over https, port kept: `http://10.0.0.5:8787/api` → `https://10.0.0.5:8787/api`, and a
 * portless `http://host` keeps port 80 (the port that answered TLS), not https' 443.
 */
export function httpsAddressOf(remote: string): string {
  const url = new URL(remote);
  const port = url.port || '80';
  url.protocol = 'https:';
  url.port = port;
  return url.toString().replace(/\/+$/, '');
}

/**
 * Opens a TLS handshake on the address's host and port and closes it as soon as the server's certificate is seen:
 * no request is sent, so no key. A plain HTTP server answers the handshake with an error page or a reset, which
 * reads as `plain`. Any certificate is accepted here: the caller decides what to trust.
 */
export function probeTls(remote: string, timeoutMs = 3_000): Promise<TlsProbe> {
  const url = new URL(remote);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return new Promise<TlsProbe>((resolve) => {
    let settled = false;
    const socket = tls.connect({
      host,
      port,
      // The certificate is self-signed by the shelter: it is compared and pinned by its fingerprint instead.
      rejectUnauthorized: false,
      ...(net.isIP(host) === 0 && { servername: host }),
    });
    const done = (result: TlsProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => done(socket.connecting ? { kind: 'unreachable' } : { kind: 'plain' }),
      timeoutMs,
    );
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate()?.raw;
      done(raw ? { kind: 'tls', fingerprint: fingerprintOf(raw) } : { kind: 'plain' });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      done(UNREACHABLE_CODES.has(error.code ?? '') ? { kind: 'unreachable' } : { kind: 'plain' });
    });
    socket.once('close', () => done({ kind: 'plain' }));
  });
}

/** Said when a plain `http://` address now speaks TLS: nothing was sent over plain HTTP. */
export class HttpsRequiredError extends Error {
  readonly code = 'SHELTER_DESK_HTTPS_REQUIRED';

  constructor(readonly address: string) {
    super(
      `The shelter at ${address} now shares over HTTPS only, so the desk sent nothing over plain HTTP; it moves to the encrypted connection on its next sync.`,
    );
    this.name = 'HttpsRequiredError';
  }
}

/** The refusal of `tlsGuardConnector` inside an error undici passed on, if that is what it is. */
export function httpsRequiredCause(error: unknown): HttpsRequiredError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (current instanceof HttpsRequiredError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A connector for undici that checks each new plain connection to an address `needsTlsCheck` names with a TLS
 * handshake first, and refuses it (before a byte of the request) when TLS answers. A keep-alive connection is
 * checked once, when it opens. Costs an older, plain HTTP server one extra connection (answered with its error
 * page) per connection the desk opens.
 */
export function tlsGuardConnector(timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: timeoutMs });
  return (options, callback) => {
    const address = `${options.protocol}//${options.hostname}${options.port ? `:${options.port}` : ''}`;
    if (options.protocol !== 'http:' || !needsTlsCheck(address)) {
      connect(options, callback);
      return;
    }
    probeTls(address, timeoutMs).then(
      (probe) => {
        if (probe.kind === 'tls') callback(new HttpsRequiredError(address), null);
        else connect(options, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}
