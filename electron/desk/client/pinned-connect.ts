import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';

/** Said when the shelter's certificate is not the one the desk paired with (nothing was sent). */
export class CertificateMismatchError extends Error {
  readonly code = 'SHELTER_DESK_CERTIFICATE_MISMATCH';

  constructor(
    readonly expected: string,
    readonly presented: string,
  ) {
    super(
      'The shelter answered with a different certificate than the one its pairing code names, so the desk ' +
        'sent nothing. Someone on this network may be trying to listen in. If the shelter made a new ' +
        'certificate, ask it for a new pairing code and compare the fingerprint aloud.',
    );
    this.name = 'CertificateMismatchError';
  }
}

/** SHA-256 of a DER certificate, base64url: the form pairing codes carry. */
export function fingerprintOf(der: Buffer): string {
  return createHash('sha256').update(der).digest('base64url');
}

function sameFingerprint(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A connector for undici that trusts exactly one certificate, by its SHA-256 (as Syncthing pins device
 * certificates), never a certificate authority: the TLS handshake completes, the peer's certificate is compared
 * with the pin, and on any difference the socket is destroyed before undici writes a byte of the request (no
 * key, no body). Sessions are not resumed, so every connection shows its certificate.
 */
export function pinnedConnector(pin: string, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0, timeout: timeoutMs });
  return (options, callback) => {
    if (options.protocol !== 'https:') {
      callback(
        new Error('This shelter is paired by its certificate, so the desk talks to it over https only.'),
        null,
      );
      return;
    }
    connect(options, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('No connection.'), null);
        return;
      }
      const certificate = (socket as TLSSocket).getPeerCertificate?.();
      const presented = certificate?.raw ? fingerprintOf(certificate.raw) : '';
      if (!sameFingerprint(presented, pin)) {
        socket.destroy();
        callback(new CertificateMismatchError(pin, presented), null);
        return;
      }
      callback(null, socket);
    });
  };
}

/** An undici agent whose every connection is pinned to `pin` (see `pinnedConnector`). */
export function pinnedAgent(
  pin: string,
  options: Omit<Agent.Options, 'connect'> & { connectTimeoutMs: number },
) {
  const { connectTimeoutMs, ...rest } = options;
  return new Agent({ ...rest, connect: pinnedConnector(pin, connectTimeoutMs) });
}

/**
 * The fingerprint of the certificate the server at `baseUrl` shows, read from a TLS handshake and nothing more (no
 * byte of a request is sent): for pairing by a typed code, whose proofs then show whether it is the shelter's.
 */
export function certificateShownBy(baseUrl: string, timeoutMs: number): Promise<string> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      rejectUnauthorized: false,
      ...(isIP(host) === 0 && { servername: host }),
    });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`No TLS answer from ${url.host} in time.`)));
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate()?.raw;
      socket.end();
      if (raw) resolve(fingerprintOf(raw));
      else reject(new Error(`${url.host} showed no certificate.`));
    });
    socket.once('error', reject);
  });
}
