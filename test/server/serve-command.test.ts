import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, newPet, startServe, tempDataDir, WRITE_KEY } from './harness';

const root = path.resolve(import.meta.dirname, '../..');

function runServe(args: string[], env: Record<string, string> = {}) {
  return spawnSync('npm', ['run', '--silent', 'serve', '--', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('npm run serve', () => {
  it('exits 2 with a clear message on bad flags and bad environment', () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--bogus'],
      ['--demo-pets', '-5'],
      ['extra'],
    ]) {
      const result = runServe(args);
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^serve: /);
      expect(result.stderr).toContain('Usage: npm run serve');
    }
    expect(runServe(['--prot', '0']).stderr).toMatch(
      /^serve: Unknown option --prot\. Did you mean --port\?\n/,
    );
    // A host typed as a web address or with its port: said what to type, before anything is bound.
    const withPort = runServe(['--host', 'localhost:8080', '--data-dir', tempDataDir()]);
    expect(withPort.status).toBe(2);
    expect(withPort.stderr).toMatch(
      /^serve: --host takes the address alone: give the port with --port \(--host localhost --port 8080\)\n/,
    );
    const asAddress = runServe(['--host', 'http://0.0.0.0', '--data-dir', tempDataDir()]);
    expect(asAddress.status).toBe(2);
    expect(asAddress.stderr).toMatch(
      /^serve: --host takes the address of a network interface, not a web address/,
    );
    const env = runServe(['--port', '0', '--data-dir', tempDataDir()], { SHELTER_DESK_RATE_LIMIT: 'lots' });
    expect(env.status).toBe(2);
    expect(env.stderr).toContain('SHELTER_DESK_RATE_LIMIT');
  });

  it('creates and prints a write and a read key once when none is configured; they keep working', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({
      dataDir,
      env: { SHELTER_DESK_WRITE_KEY: undefined, SHELTER_DESK_READ_KEY: undefined },
    });
    const write = first.output().match(/write key: (\S+)/)?.[1] as string;
    const read = first.output().match(/read key: +(\S+)/)?.[1] as string;
    expect(write).toBeTruthy();
    expect(read).toBeTruthy();
    expect((await call(first.apiUrl, '/pets', { method: 'POST', key: write, body: newPet() })).status).toBe(
      200,
    );
    expect((await call(first.apiUrl, '/pets', { key: read })).json.total).toBe(1);
    expect((await call(first.apiUrl, '/pets', { method: 'POST', key: read, body: newPet() })).status).toBe(
      403,
    );
    expect(await first.stop('SIGINT')).toBe(0);

    const second = await startServe({
      dataDir,
      env: { SHELTER_DESK_WRITE_KEY: undefined, SHELTER_DESK_READ_KEY: undefined },
    });
    expect(second.output()).not.toContain('write key:');
    expect((await call(second.apiUrl, '/pets', { key: read })).json.total).toBe(1);
    expect(await second.stop()).toBe(0);
  });

  it('warns when asked to bind beyond loopback, and says why it could not start', () => {
    // A documentation address (RFC 5737) this machine does not have: the warning comes first, and nothing is bound.
    const result = runServe(['--host', '192.0.2.1', '--port', '0', '--data-dir', tempDataDir()]);
    expect(result.stderr).toMatch(
      /Warning: binding 192\.0\.2\.1 makes the API reachable from other machines/,
    );
    expect(result.stderr).toMatch(/serve: could not start: listen EADDRNOTAVAIL/);
    expect(result.status).toBe(1);
  });

  it('SHELTER_DESK_RATE_LIMIT caps every endpoint per key per hour: 429 with Retry-After', async () => {
    const server = await startServe({ env: { SHELTER_DESK_RATE_LIMIT: '3' } });
    for (let i = 0; i < 3; i++) {
      const ok = await call(server.apiUrl, '/pets');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    const limited = await call(server.apiUrl, '/pets');
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe('rate_limited');
    expect(limited.json.request_id).toBe(limited.headers.get('x-request-id'));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset % 3600).toBe(0);
    // Another endpoint has its own counter.
    expect((await call(server.apiUrl, '/adoption-fees')).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it('SIGTERM finishes the in-flight request, then exits 0; a killed server loses nothing it acknowledged', async () => {
    const dataDir = tempDataDir();
    const server = await startServe({ dataDir });
    const created = await call(server.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Durable Dana' }),
    });
    expect(created.status).toBe(200);

    const body = JSON.stringify(newPet({ name: 'In Flight Ivy' }));
    const url = new URL(`${server.apiUrl}/pets`);
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'x-api-key': WRITE_KEY,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
    });
    const response = new Promise<{ status: number; text: string }>((resolve) =>
      request.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      }),
    );
    request.write(body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const exit = server.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    request.end(body.slice(5));
    expect((await response).status).toBe(200);
    expect(await exit).toBe(0);

    const again = await startServe({ dataDir });
    expect((await call(again.apiUrl, `/pets/${created.json.id}`)).json.name).toBe('Durable Dana');
    const written = await call(again.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Killed Kim' }),
    });
    expect(written.status).toBe(200);
    await again.stop('SIGKILL');
    const third = await startServe({ dataDir });
    expect((await call(third.apiUrl, `/pets/${written.json.id}`)).json.name).toBe('Killed Kim');
    expect((await call(third.apiUrl, '/pets?search=in%20flight%20ivy')).json.total).toBe(1);
    expect(await third.stop()).toBe(0);
  });
});
