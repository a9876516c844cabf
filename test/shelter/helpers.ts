import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';

export { deskCli as cli } from '../run-command';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs at the end of the current test (reverse order). */
export function later(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

export function tempDir(prefix = 'sd-shelter-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  later(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A desk core on a data folder, closed after the test. */
export async function openDesk(dataDir: string): Promise<DeskCore> {
  const core = await createDeskCore({ dataDir, appVersion: 'test' });
  later(() => core.close());
  return core;
}

/** A request to a shelter API with a key. */
export async function api(
  apiUrl: string,
  key: string,
  pathAndQuery: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

/** SHA-256 of a file's bytes, to prove it did not change. */
export function fileHash(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * For a test file of LAN sharing: the desks' LAN listeners bind 127.0.0.1 on any free port (never the PC's real
 * network), and an http:// address on 127.0.0.1 counts as one on another machine that the desk checks for TLS.
 */
export function shareLanOnLoopback(): void {
  beforeAll(() => {
    process.env.SHELTER_DESK_LAN_HOST = '127.0.0.1';
    process.env.SHELTER_DESK_LAN_PORT = '0';
  });
  afterAll(() => {
    delete process.env.SHELTER_DESK_LAN_HOST;
    delete process.env.SHELTER_DESK_LAN_PORT;
  });
}
