import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningBrowserHost, startBrowserHost } from '../../electron/browser-host';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { DESK_TOKEN_META } from '../../shared/desk-api';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http, because fetch refuses to send a chosen Host header. */
function request(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let dir: string;
let core: DeskCore;
let host: RunningBrowserHost;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-host-'));
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><html><head></head><body></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'private');
  core = await createDeskCore({ dataDir: path.join(dir, 'data'), appVersion: '9.9.9' });
  host = await startBrowserHost({ core, rendererDir, port: 0 });
});

afterEach(async () => {
  await host.close();
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function call(
  method: string,
  body: string | undefined,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return request(host.port, {
    method: 'POST',
    path: `/desk/call/${method}`,
    headers: { 'content-type': 'application/json', 'x-desk-token': host.secret, ...headers },
    ...(body !== undefined && { body }),
  });
}

describe('browser host', () => {
  it('serves index.html with the CSP, the token meta and an HttpOnly SameSite=Strict cookie', async () => {
    const reply = await request(host.port, { path: '/' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
    expect(reply.body).toContain(`<meta name="${DESK_TOKEN_META}" content="${host.secret}">`);
    const cookie = String(reply.headers['set-cookie']);
    expect(cookie).toContain(`${host.cookieName}=${host.secret}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
  });

  it('answers a call with the right secret', async () => {
    const reply = await call('app.info', undefined);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      ok: true,
      value: { name: 'Shelter Desk', version: '9.9.9' },
    });
  });

  it('returns validation errors as a DeskError the UI can show', async () => {
    const reply = await call('settings.update', JSON.stringify({ colorScheme: 'plaid' }));
    expect(JSON.parse(reply.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fieldErrors: [{ field: 'colorScheme' }] },
    });
  });

  it('refuses a call without the secret or with a wrong one, and changes nothing', async () => {
    const missing = await request(host.port, {
      method: 'POST',
      path: '/desk/call/settings.update',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ colorScheme: 'dark' }),
    });
    expect(missing.status).toBe(403);
    const wrong = await call('settings.update', JSON.stringify({ colorScheme: 'dark' }), {
      'x-desk-token': `${host.secret.slice(0, -1)}x`,
    });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.body)).toMatchObject({ ok: false, error: { code: 'desk_secret_refused' } });
    expect(await core.registry.invoke('settings.get')).toMatchObject({ colorScheme: 'auto' });
  });

  it('refuses a foreign Origin even with the right secret', async () => {
    const reply = await call('app.info', undefined, { origin: 'http://evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.body).toContain('foreign Origin');
  });

  it('refuses a foreign Host (DNS rebinding), for the page and for calls', async () => {
    const page = await request(host.port, { path: '/', headers: { host: `rebind.example:${host.port}` } });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain(host.secret);
    const reply = await call('app.info', undefined, { host: `rebind.example:${host.port}` });
    expect(reply.status).toBe(403);
  });

  it('refuses bodies that are not JSON, too large, or unreadable', async () => {
    expect((await call('settings.update', '{nope')).status).toBe(400);
    expect((await call('settings.update', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await call('settings.update', 'x'.repeat(1024 * 1024 + 1))).status).toBe(413);
  });

  it('never serves files outside the UI folder', async () => {
    for (const p of ['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt']) {
      const reply = await request(host.port, { path: p });
      expect(reply.status).toBe(404);
      expect(reply.body).not.toContain('private');
    }
  });

  it('streams events over SSE to a page holding the session cookie, and not to others', async () => {
    const refused = await new Promise<number>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: host.port,
            path: '/desk/events',
            headers: { host: `127.0.0.1:${host.port}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    expect(refused).toBe(403);

    const received = new Promise<string>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/desk/events',
          headers: { host: `127.0.0.1:${host.port}`, cookie: `${host.cookieName}=${host.secret}` },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            const line = buffer.split('\n').find((l) => l.startsWith('data: '));
            if (line) {
              req.destroy();
              resolve(line.slice('data: '.length));
            }
          });
          // Once the stream is open, change a setting through the bridge.
          void call('settings.update', JSON.stringify({ shelterName: 'Whisker Haven' }));
        },
      );
      req.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    expect(JSON.parse(await received)).toEqual({
      type: 'settings',
      settings: {
        colorScheme: 'auto',
        shelterName: 'Whisker Haven',
        currency: 'USD',
        deskName: '',
        dateOrder: 'auto',
      },
    });
  });
});
