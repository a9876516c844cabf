import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ApiClient, createApiClient } from '../../electron/core/client';
import { type Mirror, openMirror } from '../../electron/core/mirror';
import { Outbox, type OutboxOptions } from '../../electron/core/outbox';
import { type RunningApiServer, startApiServer } from '../../electron/core/server';

export const WRITE_KEY = 'outbox-test-write-key';

/** A temp folder removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The embedded server on its own temp database, with raised limits (tests send many writes). */
export async function startServer(
  options: { now?: () => number; dataDir?: string } = {},
): Promise<RunningApiServer & { dataDir: string }> {
  const dataDir = options.dataDir ?? tempDir('outbox-server-').dir;
  const server = await startApiServer({
    dataDir,
    writeKey: WRITE_KEY,
    rateLimitPerHour: 1_000_000,
    ...(options.now && { now: options.now }),
  });
  return Object.assign(server, { dataDir });
}

/** A client with short backoffs, so fault tests run fast. */
export function testClient(origin: string, apiKey = WRITE_KEY): ApiClient {
  return createApiClient({ baseUrl: origin, apiKey, backoffBaseMs: 1, backoffCapMs: 5, maxAttempts: 3 });
}

export async function openTestOutbox(
  options: Partial<OutboxOptions> & { filename?: string } = {},
): Promise<{ mirror: Mirror; outbox: Outbox }> {
  const mirror = await openMirror({ filename: options.filename ?? ':memory:' });
  const outbox = new Outbox({ backoffBaseMs: 1, backoffCapMs: 5, ...options, db: mirror.db });
  return { mirror, outbox };
}

/** Minimal valid pet write fields; override any. */
export function petFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Rex',
    species: 'dog',
    age_category: 'adult',
    sex: 'male',
    size: 'medium',
    status: 'available',
    health: 'good',
    ...overrides,
  };
}
