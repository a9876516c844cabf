import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { FixedWindowRateLimiter } from '../../electron/server/domain/rate-limit';
import { MAX_BODY_DEPTH } from '../../electron/server/http/body';
import { createRequestListener } from '../../electron/server/http/pipeline';
import { Router } from '../../electron/server/http/route';
import { metadataRoutes } from '../../electron/server/routes/metadata';
import { peopleRoutes } from '../../electron/server/routes/people';
import { petRoutes } from '../../electron/server/routes/pets';
import { openServerContext, type ServerContext } from '../../electron/server/server-context';
import { type ApiResponse, call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

let server: RunningApiServer;
let api: string;

beforeAll(async () => {
  server = await startApiServer({
    dataDir: tempDataDir('shelter-hostile-'),
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
  });
  api = server.apiUrl;
});
afterAll(async () => {
  await server.close();
});

function expectFieldError(response: ApiResponse, status: number, code: string, field: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.json.code).toBe(code);
  expect(response.json.request_id).toBe(response.headers.get('x-request-id'));
  expect(JSON.stringify(response.json.errors), response.text).toContain(`"field":"${field}"`);
}

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { level: value } : [value];
  return value;
}

describe('numbers past what a list can page to', () => {
  it('answers 400 naming offset for offsets beyond the largest exact integer, on pets and people', async () => {
    for (const offset of ['99999999999999999999', '9223372036854775807', '9007199254740992', '1e20']) {
      expectFieldError(await call(api, `/pets?offset=${offset}`), 400, 'invalid_parameter', 'offset');
      expectFieldError(
        await call(api, `/people?type=adopter&offset=${offset}`),
        400,
        'invalid_parameter',
        'offset',
      );
    }
  });

  it('still pages at the largest exact offset (an empty page)', async () => {
    const response = await call(api, '/pets?offset=9007199254740991');
    expect(response.status, response.text).toBe(200);
    expect(response.json.pets).toEqual([]);
    expect(response.json.offset).toBe(9007199254740991);
  });
});

describe('deep nesting', () => {
  it(`refuses custom_field_data nested past ${MAX_BODY_DEPTH} levels with a 400 naming it, and keeps nothing`, async () => {
    const before = (await call(api, '/pets?limit=1')).json.total;
    for (const depth of [MAX_BODY_DEPTH, 5000, 200_000]) {
      // Written as text: JSON.stringify itself overflows the stack on the deepest of these.
      const pet = JSON.stringify(newPet({ custom_field_data: { notes: 'DEEP' } }));
      const open = depth > 10_000 ? '[' : '{"level":';
      const close = depth > 10_000 ? ']' : '}';
      const raw = pet.replace('"DEEP"', `${open.repeat(depth)}1${close.repeat(depth)}`);
      const response = await call(api, '/pets', {
        method: 'POST',
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, response.text).toBe(400);
      expect(response.json.code).toBe('validation_failed');
      expect(response.json.errors[0].field).toMatch(/^custom_field_data\.notes(\.level|\[0\])$/);
      expect(response.json.error).toContain(`nested more than ${MAX_BODY_DEPTH} levels`);
    }
    const person = await call(api, '/people', {
      method: 'POST',
      body: { type: 'adopter', name: 'Deep', custom_field_data: { a: nested(3000) } },
    });
    expect(person.status, person.text).toBe(400);
    expect(person.json.errors[0].field).toMatch(/^custom_field_data\.a/);
    expect((await call(api, '/pets?limit=1')).json.total).toBe(before);
  });

  it('accepts nesting within the limit and returns it as sent', async () => {
    const data = { notes: nested(MAX_BODY_DEPTH - 3) };
    const response = await call(api, '/pets', { method: 'POST', body: newPet({ custom_field_data: data }) });
    expect(response.status, response.text).toBe(200);
    expect(response.json.custom_field_data).toEqual(data);
  });
});

describe('text that is not valid Unicode', () => {
  it('refuses a body that is not UTF-8 with 400 invalid_json', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"name":"Caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","species":"dog"}'),
    ]);
    const response = await call(api, '/pets', {
      method: 'POST',
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.json.code).toBe('invalid_json');
  });

  it('refuses lone surrogates in values and keys with a 400 naming the field, so nothing unreachable is stored', async () => {
    const lone =
      '{"name":"Rex","species":"dog","age_category":"adult","sex":"male","size":"medium","status":"available","health":"good","custom_id":"A\\ud800"}';
    expectFieldError(
      await call(api, '/pets', {
        method: 'POST',
        raw: lone,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation_failed',
      'custom_id',
    );
    const key = '{"description":"x","custom_field_data":{"\\udc00k":1}}';
    const pet = (await call(api, '/pets?limit=1')).json.pets[0];
    const patch = await call(api, `/pets/${pet.id}`, {
      method: 'PATCH',
      raw: key,
      headers: { 'content-type': 'application/json' },
    });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.json.errors[0].field).toBe('custom_field_data.\ufffdk');
    // A properly paired surrogate (an emoji) is fine.
    const emoji = await call(api, '/pets', { method: 'POST', body: newPet({ custom_id: 'dog-🐕' }) });
    expect(emoji.status, emoji.text).toBe(200);
    const patched = await call(api, `/pets/${encodeURIComponent('dog-🐕')}`, {
      method: 'PATCH',
      body: { description: 'found again' },
    });
    expect(patched.status, patched.text).toBe(200);
  });

  it('refuses query values whose percent-escapes are not UTF-8 with 400 naming the parameter', async () => {
    expectFieldError(await call(api, '/pets?search=%FF%FE'), 400, 'invalid_parameter', 'search');
    expectFieldError(await call(api, '/pets?status=%ED%A0%80'), 400, 'invalid_parameter', 'status');
    expectFieldError(
      await call(api, '/people?type=adopter&search=%E0%A4%A'),
      400,
      'invalid_parameter',
      'search',
    );
    expect((await call(api, '/pets?search=caf%C3%A9')).status).toBe(200);
  });

  it('still answers 401 before looking at the query of a request without a key', async () => {
    const response = await call(api, '/pets?search=%FF', { key: null });
    expect(response.status).toBe(401);
  });
});

describe('a full disk', () => {
  let app: ServerContext;
  let origin: string;
  let httpServer: http.Server;

  beforeAll(async () => {
    app = await openServerContext(path.join(tempDataDir('shelter-full-'), 'server.sqlite'));
    app.keys.provision(WRITE_KEY, 'write', 'test');
    const router = new Router([...metadataRoutes, ...petRoutes, ...peopleRoutes]);
    httpServer = http.createServer(createRequestListener(app, router, new FixedWindowRateLimiter(() => 1e9)));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    await new Promise((resolve) => httpServer.close(resolve));
    await app.close();
  });

  it('answers 503 storage_full with Retry-After, keeps serving reads, and takes the retried write once space is back', async () => {
    const created = await call(origin, '/pets', { method: 'POST', body: newPet({ name: 'Before' }) });
    expect(created.status).toBe(200);
    // Act out a full disk: the database may not grow by a single page.
    const pages = app.sqlite.pragma('page_count', { simple: true }) as number;
    app.sqlite.pragma(`max_page_count = ${pages}`);
    const big = newPet({ name: 'Big', description: 'x'.repeat(200_000) });
    const headers = { 'idempotency-key': 'full-disk-1' };
    const refused = await call(origin, '/pets', { method: 'POST', body: big, headers });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.json.code).toBe('storage_full');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.json.request_id).toBe(refused.headers.get('x-request-id'));
    const read = await call(origin, `/pets/${created.json.id}`);
    expect(read.status).toBe(200);
    expect((await call(origin, '/pets')).json.total).toBe(1);

    app.sqlite.pragma('max_page_count = 1073741823');
    const retried = await call(origin, '/pets', { method: 'POST', body: big, headers });
    expect(retried.status, retried.text).toBe(200);
    expect((await call(origin, '/pets')).json.total).toBe(2);
  });
});
