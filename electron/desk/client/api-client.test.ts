import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiClient, normalizeBaseUrl } from './api-client';
import { ApiError } from './api-error';
import { delayBeforeRequest, rateBucket, readRateWindow } from './rate-limit';
import { retryAfterMs } from './response-bounds';

type Responder = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let server: http.Server | undefined;

async function serve(responder: Responder): Promise<string> {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => responder(req, res, body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const REQUEST_ID = '7f1c8a52-3f0e-4c9b-9a57-0c4ed1c2f001';
const okSchema = z.object({ ok: z.boolean() });

function reply(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': REQUEST_ID, ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

describe('normalizeBaseUrl', () => {
  it('accepts an origin or an /api address and refuses anything else with a reason', () => {
    expect(normalizeBaseUrl('http://10.0.0.5:8080/api/')).toBe('http://10.0.0.5:8080');
    expect(normalizeBaseUrl(' https://shelter.example.org ')).toBe('https://shelter.example.org');
    // A page of the API copied from the browser: the API it is a page of.
    expect(normalizeBaseUrl('http://10.0.0.5:8080/api/pets')).toBe('http://10.0.0.5:8080');
    expect(normalizeBaseUrl('https://example.org/shelter/api/people/5f1c?type=adopter')).toBe(
      'https://example.org/shelter',
    );
    expect(normalizeBaseUrl('https://example.org/api/pets-and-more/api')).toBe(
      'https://example.org/api/pets-and-more',
    );
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(/http/);
    expect(() => normalizeBaseUrl('not a url')).toThrow(/not a web address/);
    expect(() => normalizeBaseUrl('https://user:key@x.org')).toThrow(/key/);
    // A host and port as typed at a shelter: what is missing, and the code that avoids typing it.
    for (const typed of ['192.168.1.20:8787', 'shelter.local', 'office-pc:8787/api']) {
      expect(() => normalizeBaseUrl(typed)).toThrow(
        `"${typed}" needs https:// (or http://) in front, as in https://${typed}.`,
      );
    }
    expect(() => normalizeBaseUrl('192.168.1.20:8787')).toThrow(/pairing code/);
  });

  it('spots a mistyped http(s):// and says what was meant, not the typo with https:// in front', () => {
    for (const [typed, meant] of [
      ['htp//192.168.1.20:8787', 'http://192.168.1.20:8787'],
      ['https//shelter.example.org', 'https://shelter.example.org'],
      ['htps://shelter.example.org', 'https://shelter.example.org'],
      ['http;//10.0.0.5:8080', 'http://10.0.0.5:8080'],
      ['hhtps:///shelter.example.org/api', 'https://shelter.example.org/api'],
    ]) {
      expect(() => normalizeBaseUrl(typed as string)).toThrow(
        `"${typed}" has a mistyped start: did you mean ${meant}?`,
      );
    }
    expect(normalizeBaseUrl('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
    // A right scheme with a slash too many or too few is mended, as it always was.
    expect(normalizeBaseUrl('https:/shelter.example.org')).toBe('https://shelter.example.org');
    expect(normalizeBaseUrl('http:///10.0.0.5')).toBe('http://10.0.0.5');
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(/must start with http/);
  });
});

describe('createApiClient', () => {
  it('sends the key, validates the body, and returns 304 for a matching ETag', async () => {
    const seen: Array<string | undefined> = [];
    const base = await serve((req, res) => {
      seen.push(req.headers['x-api-key'] as string);
      if (req.headers['if-none-match'] === '"v1"') reply(res, 304, undefined, { etag: '"v1"' });
      else reply(res, 200, { ok: true }, { etag: '"v1"', 'x-generated-at': '2030-01-01T00:00:00.000Z' });
    });
    const client = createApiClient({ baseUrl: base, apiKey: 'secret' });
    const first = await client.get('/api/pets', { schema: okSchema });
    expect(first).toMatchObject({ status: 200, body: { ok: true }, etag: '"v1"', requestId: REQUEST_ID });
    expect(first.generatedAt).toBe('2030-01-01T00:00:00.000Z');
    expect(await client.get('/api/pets', { schema: okSchema, etag: '"v1"' })).toMatchObject({ status: 304 });
    expect(seen).toEqual(['secret', 'secret']);
    await client.close();
  });

  it('reports a reply that breaks the contract with its request id', async () => {
    const base = await serve((_req, res) => reply(res, 200, { ok: 'yes' }));
    const client = createApiClient({ baseUrl: base, apiKey: 'k' });
    await expect(client.get('/api/pets', { schema: okSchema })).rejects.toMatchObject({
      kind: 'invalid-response',
      requestId: REQUEST_ID,
    });
    await client.close();
  });

  it('retries 5xx with jittered backoff, then succeeds', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls += 1;
      if (calls < 3) reply(res, 503, { error: 'busy', code: 'internal_error', request_id: REQUEST_ID });
      else reply(res, 200, { ok: true });
    });
    const waits: number[] = [];
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      sleep: async () => {},
      random: () => 0.5,
      onWait: (wait) => waits.push(wait.ms),
    });
    expect((await client.get('/api/pets', { schema: okSchema })).status).toBe(200);
    expect(waits).toEqual([250, 500]);
    await client.close();
  });

  it('waits out a 429 Retry-After, and gives up with rate-limited when it is too long', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls += 1;
      if (calls === 1)
        reply(
          res,
          429,
          { error: 'slow', code: 'rate_limited', request_id: REQUEST_ID },
          { 'retry-after': '2' },
        );
      else if (calls === 2) reply(res, 200, { ok: true });
      else
        reply(
          res,
          429,
          { error: 'slow', code: 'rate_limited', request_id: REQUEST_ID },
          { 'retry-after': '3600' },
        );
    });
    const waits: Array<{ reason: string; ms: number }> = [];
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      sleep: async () => {},
      onWait: (w) => waits.push(w),
    });
    expect((await client.get('/api/pets', { schema: okSchema })).status).toBe(200);
    expect(waits).toEqual([{ reason: 'retry-after', ms: 2000 }]);
    const error = await client.get('/api/pets', { schema: okSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'rate-limited', requestId: REQUEST_ID });
    await client.close();
  });

  it('stops with needs-auth on 401 and 403, without retrying', async () => {
    let calls = 0;
    const base = await serve((req, res) => {
      calls += 1;
      const status = req.url?.includes('write') ? 403 : 401;
      reply(res, status, { error: 'Invalid API key', code: 'invalid_api_key', request_id: REQUEST_ID });
    });
    const client = createApiClient({ baseUrl: base, apiKey: 'k' });
    const error = (await client.get('/api/pets', { schema: okSchema }).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('needs-auth');
    expect(error.message).toContain('Invalid API key');
    expect(error.message).not.toContain('k"');
    expect(error.toDeskError()).toEqual({
      code: 'needs_auth',
      message: error.message,
      requestId: REQUEST_ID,
    });
    await expect(
      client.send({ method: 'POST', path: '/api/write', body: '{}', idempotencyKey: 'a' }),
    ).rejects.toMatchObject({
      kind: 'needs-auth',
      status: 403,
    });
    expect(calls).toBe(2);
    await client.close();
  });

  it('names the request and the status of a refusal, with the sentence of the server once', async () => {
    const base = await serve((_req, res) =>
      reply(res, 404, { error: 'No endpoint at /api/pets.', code: 'not_found', request_id: REQUEST_ID }),
    );
    const client = createApiClient({ baseUrl: base, apiKey: 'k' });
    const error = (await client
      .get('/api/pets?limit=5', { schema: okSchema })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ kind: 'rejected', status: 404, requestId: REQUEST_ID });
    expect(error.message).toBe('GET /api/pets failed with 404: No endpoint at /api/pets.');
    await client.close();
  });

  it('reports unreachable after one quick retry when no connection can be opened', async () => {
    const waits: string[] = [];
    const client = createApiClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      sleep: async () => {},
      random: () => 1,
      onWait: ({ reason }) => waits.push(reason),
      maxAttempts: 5,
    });
    await expect(client.get('/api/pets', { schema: okSchema })).rejects.toMatchObject({
      kind: 'unreachable',
      nothingSent: true,
    });
    // Connection refused: two tries, not five, so the desk says "offline" within a second.
    expect(waits.filter((reason) => reason === 'backoff')).toHaveLength(1);
    await client.close();
  });

  it('says a server that answers https in plain http does not use https, and which address to type', async () => {
    const base = (await serve((_req, res) => res.end('{}'))).replace(/^http:/, 'https:');
    const client = createApiClient({ baseUrl: base, apiKey: 'k', sleep: async () => {}, maxAttempts: 3 });
    const refused = await client.get('/api/pets', { schema: okSchema }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: 'rejected', code: 'https_not_offered' });
    expect((refused as ApiError).message).toContain('does not use https');
    expect((refused as ApiError).message).toContain(
      `(${base.replace(/^https:/, 'http:').replace(/\/api\/$/, '')}`,
    );
    expect((refused as ApiError).message).not.toMatch(/SSL|ssl3|openssl/i);
    await client.close();
  });

  it('retries a connection dropped mid-request up to maxAttempts', async () => {
    let requests = 0;
    const baseUrl = await serve((req) => {
      requests += 1;
      req.socket.destroy();
    });
    const client = createApiClient({ baseUrl, apiKey: 'k', sleep: async () => {}, maxAttempts: 3 });
    await expect(client.get('/api/pets', { schema: okSchema })).rejects.toMatchObject({
      kind: 'unreachable',
      nothingSent: false,
    });
    expect(requests).toBe(3);
    await client.close();
  });

  it('sends exact body bytes with the Idempotency-Key and returns status, headers, body and request id', async () => {
    let received: { body: string; key: string | undefined; type: string | undefined } | undefined;
    const base = await serve((req, res, body) => {
      received = {
        body,
        key: req.headers['idempotency-key'] as string,
        type: req.headers['content-type'],
      };
      reply(res, 400, { error: 'name is required', code: 'validation_failed', request_id: REQUEST_ID });
    });
    const client = createApiClient({ baseUrl: base, apiKey: 'k' });
    const bytes = '{"species":"dog", "x":1}';
    const result = await client.send({
      method: 'POST',
      path: '/api/pets',
      body: bytes,
      idempotencyKey: 'key-1',
    });
    expect(received).toEqual({ body: bytes, key: 'key-1', type: 'application/json' });
    expect(result).toMatchObject({
      status: 400,
      requestId: REQUEST_ID,
      replay: false,
      body: { code: 'validation_failed' },
    });
    expect(result.headers['content-type']).toBe('application/json');
    await client.close();
  });
  it('waits for beforeRead before each GET, never before a write', async () => {
    const order: string[] = [];
    const base = await serve((req, res) => {
      order.push(`${req.method} sent`);
      reply(res, 200, { ok: true });
    });
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      beforeRead: async () => {
        order.push('waited');
      },
    });
    await client.get('/api/pets', { schema: okSchema });
    await client.send({ method: 'POST', path: '/api/pets', body: '{}', idempotencyKey: 'key-2' });
    expect(order).toEqual(['waited', 'GET sent', 'POST sent']);
    await client.close();
  });
});

describe('rate limits', () => {
  it('reads the reset on the server clock, whatever the desk clock says', () => {
    const window = readRateWindow(
      {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '50',
        'x-ratelimit-reset': String(Date.parse('2040-01-01T01:00:00Z') / 1000),
        'x-generated-at': '2040-01-01T00:00:00Z',
      },
      1_000,
    );
    expect(window).toEqual({ limit: 100, remaining: 50, resetAt: 1_000 + 3_600_000 });
  });

  it('has no delay with room, spreads requests when low, and waits for the reset at the reserve', () => {
    const window = { limit: 1000, remaining: 500, resetAt: 100_000 };
    expect(delayBeforeRequest(window, 0)).toBe(0);
    expect(delayBeforeRequest({ ...window, remaining: 120 }, 0)).toBe(1000);
    expect(delayBeforeRequest({ ...window, remaining: 20 }, 0)).toBe(100_000);
    expect(delayBeforeRequest({ ...window, remaining: 0 }, 200_000)).toBe(0);
  });

  it('buckets requests per endpoint', () => {
    expect(rateBucket('get', '/api/pets/3f0e?x=1')).toBe('GET /api/pets/:id');
    expect(rateBucket('GET', '/api/pets/custom-fields')).toBe('GET /api/pets/custom-fields');
    expect(rateBucket('GET', '/api/people?type=adopter')).toBe('GET /api/people');
  });
});

describe('rate-limit pacing against a server', () => {
  it('waits for the window to reset rather than spend the last requests, and gives up when that is too far', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 30;
    let remaining = 2;
    const base = await serve((_req, res) => {
      remaining -= 1;
      reply(
        res,
        200,
        { ok: true },
        {
          'x-ratelimit-limit': '50',
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': String(reset),
          'x-generated-at': new Date().toISOString(),
        },
      );
    });
    const waits: Array<{ reason: string; ms: number }> = [];
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      sleep: async () => {},
      onWait: (w) => waits.push(w),
    });
    await client.get('/api/adoption-fees', { schema: okSchema });
    // One request left of 50 (the reserve): the next one waits for the reset instead of using it.
    await client.get('/api/adoption-fees', { schema: okSchema });
    expect(waits[0]?.reason).toBe('rate-limit');
    expect(waits[0]?.ms).toBeGreaterThan(25_000);
    const impatient = createApiClient({ baseUrl: base, apiKey: 'k', maxWaitMs: 1_000 });
    await impatient.get('/api/adoption-fees', { schema: okSchema }).catch(() => undefined);
    await expect(impatient.get('/api/adoption-fees', { schema: okSchema })).rejects.toMatchObject({
      kind: 'rate-limited',
    });
    await client.close();
    await impatient.close();
  });
});

describe('bounds of one request', () => {
  it('honours Retry-After as an HTTP date, measured on the server clock', async () => {
    expect(
      retryAfterMs(
        { 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT', date: 'Wed, 21 Oct 2026 07:28:00 GMT' },
        Date.parse('2026-10-21T12:00:00Z'),
      ),
    ).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': '7' }, 0)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, 0)).toBeUndefined();
    let calls = 0;
    const base = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) {
        const now = Date.now();
        reply(
          res,
          429,
          { error: 'slow down', code: 'rate_limited', request_id: REQUEST_ID },
          {
            date: new Date(now).toUTCString(),
            'retry-after': new Date(now + 3000).toUTCString(),
          },
        );
      } else reply(res, 200, { ok: true });
    });
    const waits: Array<{ reason: string; ms: number }> = [];
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      sleep: async () => undefined,
      onWait: (wait) => waits.push(wait),
    });
    expect(await client.get('/api/x', { schema: okSchema })).toMatchObject({ status: 200 });
    expect(waits).toHaveLength(1);
    expect(waits[0]?.ms).toBeGreaterThanOrEqual(2000);
    expect(waits[0]?.ms).toBeLessThanOrEqual(3000);
    await client.close();
  });

  it('cuts off a body that trickles past the deadline and one larger than the limit, without retrying', async () => {
    let requests = 0;
    const base = await serve((req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': REQUEST_ID });
      if (req.url?.includes('slow')) {
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
        res.write('{');
      } else {
        res.end(`{"ok":true,"pad":"${'x'.repeat(3 * 1024 * 1024)}"}`);
      }
    });
    const client = createApiClient({
      baseUrl: base,
      apiKey: 'k',
      deadlineMs: 400,
      maxResponseBytes: 1024 * 1024,
    });
    const started = performance.now();
    const slow = await client.get('/api/slow', { schema: okSchema }).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(slow).toBeInstanceOf(ApiError);
    expect(slow).toMatchObject({ code: 'response_too_slow', requestId: REQUEST_ID });
    const big = await client.get('/api/big', { schema: okSchema }).catch((error: unknown) => error);
    expect(big).toMatchObject({ code: 'response_too_large', requestId: REQUEST_ID });
    expect((big as Error).message).toContain('limit 1 MB');
    expect(requests).toBe(2);
    await client.close();
  });
});
