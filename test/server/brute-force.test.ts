import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/platform/open-database';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { sha256Digest } from '../../electron/server/db/key-hash';
import { serverMigrations } from '../../electron/server/db/migrations';
import { bucketOf } from '../../electron/server/domain/auth-throttle';
import { openServerContext } from '../../electron/server/server-context';
import { READ_KEY, tempDataDir, WRITE_KEY } from './harness';

/** Requests from a chosen loopback address (Linux routes all of 127.0.0.0/8 to lo). */
function client(localAddress: string) {
  const dispatcher = new Agent({ localAddress, connections: 8 });
  return {
    async get(url: string, key: string) {
      const response = await request(url, { headers: { 'x-api-key': key }, dispatcher });
      const body = (await response.body.json()) as { code?: string; request_id?: string; error?: string };
      return { status: response.statusCode, retryAfter: response.headers['retry-after'], body };
    },
    close: () => dispatcher.close(),
  };
}

describe('brute force of API keys', () => {
  let server: RunningApiServer;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  const attacker = client('127.0.0.2');
  const desk = client('127.0.0.1');

  beforeAll(async () => {
    server = await startApiServer({
      dataDir: tempDataDir('shelter-brute-'),
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      rateLimitPerHour: 1_000_000,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await attacker.close();
    await desk.close();
    await server.close();
  });

  it('throttles 3,000 wrong keys from one address while a valid key from another keeps working', async () => {
    const statuses = new Map<number, number>();
    let deskOk = 0;
    for (let i = 0; i < 3000; i++) {
      const guess = await attacker.get(`${server.apiUrl}/pets?limit=1`, `guess-${i}-${'x'.repeat(i % 20)}`);
      statuses.set(guess.status, (statuses.get(guess.status) ?? 0) + 1);
      expect(typeof guess.body.error).toBe('string');
      if (guess.status === 429) {
        expect(guess.body.code).toBe('rate_limited');
        expect(Number(guess.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      if (i % 100 === 0) {
        const valid = await desk.get(`${server.apiUrl}/pets?limit=1`, READ_KEY);
        expect(valid.status).toBe(200);
        deskOk++;
      }
    }
    // Ten wrong keys were looked at (the tenth already answered 429); every later guess was turned away unchecked.
    expect(statuses.get(401)).toBe(9);
    expect(statuses.get(429)).toBe(2991);
    expect(deskOk).toBe(30);
    // Even the right key waits while its address is throttled: a guess that hit would otherwise show.
    expect((await attacker.get(`${server.apiUrl}/pets?limit=1`, READ_KEY)).status).toBe(429);
    const summary = `brute force: 3000 wrong keys from 127.0.0.2 -> ${statuses.get(401)} checked (401), ${statuses.get(429)} throttled (429); valid key from 127.0.0.1: ${deskOk}/${deskOk} served`;
    console.log(summary);
  });

  it('doubles the wait after each further failure and forgets an address after a quiet quarter hour', async () => {
    clock += 16 * 60 * 1000;
    const url = `${server.apiUrl}/pets`;
    for (let i = 0; i < 9; i++) expect((await attacker.get(url, `again-${i}`)).status).toBe(401);
    let last = await attacker.get(url, 'again-9');
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect(last.status).toBe(429);
      waits.push(Number(last.retryAfter));
      // Still waiting: nothing is checked and the wait does not grow.
      expect((await attacker.get(url, 'during-wait')).retryAfter).toBe(last.retryAfter);
      clock += Number(last.retryAfter) * 1000;
      last = await attacker.get(url, `after-wait-${i}`);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    clock += 16 * 60 * 1000;
    expect((await attacker.get(url, READ_KEY)).status).toBe(200);
  });

  it('counts IPv6 clients per /64', () => {
    expect(bucketOf('2001:db8:1:2:aaaa::1')).toBe(bucketOf('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(bucketOf('2001:db8:1:3::1')).not.toBe(bucketOf('2001:db8:1:2::1'));
    expect(bucketOf('::ffff:10.0.0.7')).toBe('10.0.0.7');
  });
});

describe('key storage', () => {
  it('stores no key in clear beyond a short prefix, salts each key, and keeps the database owner-only', async () => {
    const dataDir = tempDataDir('shelter-keys-');
    const server = await startApiServer({ dataDir, writeKey: WRITE_KEY, readKey: READ_KEY });
    const created = server.staff.createApiKey('read', 'front desk');
    await server.close();
    const file = path.join(dataDir, 'server.sqlite');
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      if (fs.existsSync(name)) expect((fs.statSync(name).mode & 0o777).toString(8)).toBe('600');
    }
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
    db.close();
    const bytes =
      fs.readFileSync(file).toString('latin1') +
      (fs.existsSync(`${file}-wal`) ? fs.readFileSync(`${file}-wal`).toString('latin1') : '');
    for (const key of [WRITE_KEY, READ_KEY, created.key]) {
      expect(bytes.includes(key.slice(0, 12))).toBe(false);
      const hex = sha256Digest(key).toString('hex');
      expect(bytes.includes(hex)).toBe(false);
    }
    expect(new Set(rows.map((row) => row.key_salt)).size).toBe(rows.length);
    for (const row of rows) expect(String(row.key_prefix).length).toBeLessThanOrEqual(8);
  });

  it('keeps keys of a database from before salting working (migration 0501)', async () => {
    const file = path.join(tempDataDir('shelter-oldkeys-'), 'server.sqlite');
    const old = await openDatabase({
      filename: file,
      migrations: {
        '0001-initial': serverMigrations['0001-initial'] as never,
        '0002-pet-version-index': serverMigrations['0002-pet-version-index'] as never,
      },
    });
    old.sqlite
      .prepare(
        "INSERT INTO api_keys (id, label, access, key_hash, key_prefix, created_at) VALUES ('k1', 'old', 'write', ?, 'test-w', 1)",
      )
      .run(sha256Digest(WRITE_KEY).toString('hex'));
    await old.close();
    const app = await openServerContext(file);
    expect(app.keys.authenticate(WRITE_KEY)).toEqual({ id: 'k1', access: 'write' });
    expect(app.keys.authenticate(READ_KEY)).toBeUndefined();
    const listed = app.keys.list();
    expect(listed).toEqual([
      expect.objectContaining({
        id: 'k1',
        label: 'old',
        access: 'write',
        keyPrefix: 'test-w',
        revokedAt: null,
      }),
    ]);
    expect(listed[0]?.lastUsedAt).not.toBeNull();
    await app.close();
  });

  it("marks one key as the desk's own: named so, never revoked, and moved when the desk's key changes", async () => {
    const app = await openServerContext(':memory:', () => Date.parse('2026-03-01T10:00:00Z'));
    const other = app.keys.create('write', 'Laptop');
    const first = app.keys.provision('sd_w_first-desk-key-0123456789', 'write', 'ignored', { deskOwn: true });
    const own = () => app.keys.list().filter((key) => key.deskOwn);
    expect(own()).toEqual([expect.objectContaining({ id: first, label: 'This desk (its own shelter)' })]);
    expect(app.keys.revoke(first)).toBe('desk-own');
    expect(app.keys.authenticate('sd_w_first-desk-key-0123456789')).toMatchObject({ id: first });
    // The desk's stored key was lost and a new one provisioned: only the new one is the desk's now.
    const second = app.keys.provision('sd_w_second-desk-key-012345678', 'write', 'ignored', {
      deskOwn: true,
    });
    expect(own().map((key) => key.id)).toEqual([second]);
    expect(app.keys.revoke(first)).toBe('revoked');
    expect(app.keys.revoke(other.id)).toBe('revoked');
    expect(app.keys.revoke(other.id)).toBe('unknown');
    await app.close();
  });

  it('lists keys with their last use to the minute, written with the next write or at close', async () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const app = await openServerContext(':memory:', () => now);
    const { id, key } = app.keys.create('write', 'office');
    expect(app.keys.list()[0]).toMatchObject({ id, label: 'office', access: 'write', lastUsedAt: null });
    expect(app.keys.list()[0]?.keyPrefix).toBe(key.slice(0, 8));
    app.keys.authenticate(key);
    expect(app.keys.list()[0]?.lastUsedAt).toBe('2026-03-01T10:00:00.000Z');
    now += 30_000;
    app.keys.authenticate(key);
    expect(app.keys.list()[0]?.lastUsedAt).toBe('2026-03-01T10:00:00.000Z');
    now += 31_000;
    app.keys.authenticate(key);
    expect(app.keys.list()[0]?.lastUsedAt).toBe('2026-03-01T10:01:01.000Z');
    const stored = () => app.sqlite.prepare('SELECT last_used_at FROM api_keys').pluck().get();
    expect(stored()).toBeNull();
    app.keys.flushUses();
    expect(stored()).toBe(Date.parse('2026-03-01T10:01:01.000Z'));
    expect(app.keys.revoke(id)).toBe('revoked');
    expect(app.keys.authenticate(key)).toBeUndefined();
    expect(app.keys.list()[0]?.revokedAt).not.toBeNull();
    await app.close();
  });
});
