import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { API_VERSION } from '../../../shared/contract';

/** How long close() lets in-flight requests finish before dropping their connections. */
const CLOSE_GRACE_MS = 10_000;
/** A connection that sends nothing this long after opening is dropped before TLS or HTTP starts. */
const FIRST_BYTE_MS = 10_000;
/** The first byte of every TLS connection (a handshake record). */
const TLS_HANDSHAKE = 0x16;

/** A certificate and its private key, PEM. */
export interface TlsIdentity {
  cert: string;
  key: string;
}

/** One address the API is served on: plain HTTP, or HTTPS only. */
export interface Listener {
  readonly tls: boolean;
  /** Binds and resolves with the port. */
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting and lets requests under way finish (dropped after a grace period). */
  close(): Promise<void>;
  /** Stops accepting and drops every connection at once (sharing turned off). */
  closeNow(): Promise<void>;
}

/**
 * What a client speaking plain HTTP to an HTTPS-only port gets: a short 426 in the API's error shape, then the
 * connection is closed. Nothing it sent is read or used.
 */
function refusePlainHttp(socket: net.Socket): void {
  const body = JSON.stringify({
    error: 'This shelter is shared over HTTPS only.',
    code: 'https_required',
    request_id: randomUUID(),
    hint: 'Ask the shelter desk for a new pairing code (Keys and sharing) and connect with it.',
  });
  socket.end(
    'HTTP/1.1 426 Upgrade Required\r\n' +
      `X-Api-Version: ${API_VERSION}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function bind(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

function closeGracefully(outer: net.Server, inner: http.Server, dropAll?: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    // A client that never finishes its request must not keep the database open forever.
    const force = setTimeout(() => {
      inner.closeAllConnections();
      dropAll?.();
    }, CLOSE_GRACE_MS);
    outer.close(() => {
      clearTimeout(force);
      resolve();
    });
    if (outer !== inner) inner.close();
    inner.closeIdleConnections();
  });
}

/**
 * The API on one address. With a certificate it speaks TLS only: each connection's first byte is looked at, a TLS
 * handshake goes on to the HTTPS server, anything else (plain HTTP) is answered with a 426 and closed.
 */
export function createListener(handler: http.RequestListener, tls: TlsIdentity | undefined): Listener {
  const options = { keepAliveTimeout: 5000 };
  if (!tls) {
    const server = http.createServer(options, handler);
    return {
      tls: false,
      listen: (port, host) => bind(server, port, host),
      close: () => closeGracefully(server, server),
      closeNow: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }
  const secure = https.createServer(
    { ...options, cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' },
    handler,
  );
  // Every connection, for closing: a socket handed on to the TLS server is still the front server's to close.
  const sockets = new Set<net.Socket>();
  const waiting = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    waiting.add(socket);
    socket.setTimeout(FIRST_BYTE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      waiting.delete(socket);
      socket.setTimeout(0);
      socket.pause();
      if (chunk[0] !== TLS_HANDSHAKE) {
        refusePlainHttp(socket);
        return;
      }
      // The TLS server reads on from here (resuming this socket would hand the bytes to nobody).
      socket.unshift(chunk);
      secure.emit('connection', socket);
    });
    socket.once('close', () => waiting.delete(socket));
  });
  const dropWaiting = () => {
    for (const socket of waiting) socket.destroy();
    waiting.clear();
  };
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    tls: true,
    listen: (port, host) => bind(front, port, host),
    close: () => {
      dropWaiting();
      return closeGracefully(front, secure, dropAll);
    },
    closeNow: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        secure.close();
        secure.closeAllConnections();
        dropAll();
      }),
  };
}
