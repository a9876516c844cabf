import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  DESK_HTTP_CALL_PREFIX,
  DESK_HTTP_EVENTS,
  DESK_SECRET_REFUSED,
  DESK_TOKEN_HEADER,
  DESK_TOKEN_META,
  type DeskError,
} from '../../shared/desk-api';
import type { DeskCore } from '../desk/api/desk-core';
import { UI_SECURITY_HEADERS } from './content-security-policy';
import { checkRequestOrigin, readCookie } from './request-guard';
import { contentTypeFor, resolveStaticPath } from './static-files';

/** Largest bridge call body accepted (the same limit as the API). */
const MAX_CALL_BYTES = 1024 * 1024;
/** SSE comment sent this often so proxies and the browser keep the stream open. */
const HEARTBEAT_MS = 20_000;

export interface BrowserHostOptions {
  core: Pick<DeskCore, 'registry' | 'events'>;
  /** The built renderer (`out/renderer`). */
  rendererDir: string;
  /** 0 = any free port. */
  port?: number;
  /** Per-launch secret; default 32 random bytes. */
  secret?: string;
}

export interface RunningBrowserHost {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  origin: string;
  port: number;
  /** Needed by tests and scripts that call the bridge directly. Never print it. */
  secret: string;
  /** Name of the cookie that authorises the event stream. */
  cookieName: string;
  /** Stops listening, ends event streams and waits for the server to close. */
  close(): Promise<void>;
}

/**
 * Serves the built renderer and the desk bridge to a browser on 127.0.0.1, for machines without
 * Electron. Security, since any local web page can send requests to loopback:
 * - every request: `Host` must be this host (against DNS rebinding), `Origin` its own origin;
 * - `POST /desk/call/<method>`: the per-launch secret in the `x-desk-token` header (a custom header
 *   also forces a CORS preflight, which is never answered, so no foreign page can send one);
 * - `GET /desk/events`: EventSource cannot send headers, so the secret comes as an HttpOnly,
 *   SameSite=Strict cookie set when index.html is served (scoped to /desk, named per port because
 *   cookies ignore ports). The page learns the header secret from a `<meta>` in index.html, which
 *   other origins cannot read.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningBrowserHost> {
  const { core } = options;
  const rendererDir = path.resolve(options.rendererDir);
  const indexFile = path.join(rendererDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    throw new Error(`The UI is not built (${indexFile} is missing). Run "npm run build" first.`);
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const secretBytes = Buffer.from(secret);
  const streams = new Set<ServerResponse>();
  let port = 0;
  let cookieName = '';

  function secretMatches(candidate: string | undefined): boolean {
    if (!candidate) return false;
    const bytes = Buffer.from(candidate);
    return bytes.length === secretBytes.length && timingSafeEqual(bytes, secretBytes);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('The browser host failed on a request', error);
      if (!res.headersSent) sendError(res, 500, { code: 'internal_error', message: 'The desk host failed.' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkRequestOrigin(req, port);
    if (!verdict.ok) {
      sendError(res, 403, { code: 'forbidden', message: `Refused: ${verdict.reason}.` });
      return;
    }
    const url = new URL(req.url ?? '/', verdict.origin);
    if (url.pathname.startsWith(DESK_HTTP_CALL_PREFIX)) {
      await handleCall(req, res, url.pathname.slice(DESK_HTTP_CALL_PREFIX.length));
      return;
    }
    if (url.pathname === DESK_HTTP_EVENTS) {
      handleEvents(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendError(res, 405, { code: 'method_not_allowed', message: 'Only GET is served here.' });
      return;
    }
    serveStatic(req, res, url.pathname);
  }

  async function handleCall(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendError(res, 405, { code: 'method_not_allowed', message: 'Desk calls are POST requests.' });
      return;
    }
    const token = req.headers[DESK_TOKEN_HEADER];
    if (!secretMatches(typeof token === 'string' ? token : undefined)) {
      sendError(res, 403, { code: DESK_SECRET_REFUSED, message: 'Refused: missing or wrong desk token.' });
      return;
    }
    const body = await readBody(req, MAX_CALL_BYTES);
    if (body === 'too-large') {
      sendError(res, 413, { code: 'payload_too_large', message: 'A desk call may carry at most 1 MiB.' });
      return;
    }
    let input: unknown;
    if (body.length > 0) {
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(type)) {
        sendError(res, 415, { code: 'unsupported_media_type', message: 'Desk calls carry JSON.' });
        return;
      }
      try {
        input = JSON.parse(body.toString('utf8'));
      } catch {
        sendError(res, 400, { code: 'invalid_json', message: 'The call body is not valid JSON.' });
        return;
      }
    }
    const result = await core.registry.call(method, input);
    sendJson(res, 200, result);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      sendError(res, 405, { code: 'method_not_allowed', message: 'The event stream is a GET.' });
      return;
    }
    const token = readCookie(req.headers.cookie, cookieName);
    if (!secretMatches(token)) {
      sendError(res, 403, { code: DESK_SECRET_REFUSED, message: 'Refused: missing or wrong desk session.' });
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    const unsubscribe = core.events.subscribe((event) => {
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    const file = resolveStaticPath(rendererDir, pathname);
    if (!file) {
      sendError(res, 404, { code: 'not_found', message: `Nothing at ${pathname}.` });
      return;
    }
    const headers: Record<string, string> = { ...UI_SECURITY_HEADERS, 'Content-Type': contentTypeFor(file) };
    let content: Buffer;
    if (file === fs.realpathSync(indexFile)) {
      const html = fs.readFileSync(file, 'utf8');
      const meta = `<meta name="${DESK_TOKEN_META}" content="${secret}">`;
      content = Buffer.from(html.replace('</head>', `${meta}</head>`));
      headers['Cache-Control'] = 'no-store';
      headers['Set-Cookie'] = `${cookieName}=${secret}; Path=/desk; HttpOnly; SameSite=Strict`;
    } else {
      content = fs.readFileSync(file);
      // Vite puts a content hash in every asset name, so assets never change under one URL.
      headers['Cache-Control'] = pathname.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'no-cache';
    }
    headers['Content-Length'] = String(content.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : content);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  cookieName = `shelter_desk_${port}`;
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/`,
    origin,
    port,
    secret,
    cookieName,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const stream of streams) stream.end();
        server.closeIdleConnections();
        // A browser tab may hold a keep-alive socket open; do not let it delay shutdown.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
      return closing;
    },
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, error: DeskError): void {
  sendJson(res, status, { ok: false, error });
}
