import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../../electron/server';
import type { Pet } from '../../shared/contract';
import { tempDir } from '../temp-mirror';
import { samplePetIds, startBusyWriter } from './busy-writer';
import { byId, exported, runCliCommand } from './cli-harness';

const WRITE_KEY = 'w-key-busy-shelter-0123456789abcdef';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function everyPublicPet(apiUrl: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await request(`${apiUrl}/pets?limit=100&offset=${offset}`, {
      headers: { 'x-api-key': WRITE_KEY },
    });
    const body = (await response.body.json()) as { pets: Pet[]; hasMore: boolean };
    pets.push(...body.pets);
    if (!body.hasMore) return pets;
  }
}

/** Every pet the server has, public or not (what a desk with a write key holds): the list, then the others by id. */
async function everyPet(apiUrl: string): Promise<Pet[]> {
  const response = await request(`${apiUrl}/off-list-pets`, { headers: { 'x-api-key': WRITE_KEY } });
  const offList = (await response.body.json()) as { pets: { id: string }[] };
  const others: Pet[] = [];
  for (const { id } of offList.pets) {
    const pet = await request(`${apiUrl}/pets/${id}`, { headers: { 'x-api-key': WRITE_KEY } });
    others.push((await pet.body.json()) as Pet);
  }
  return [...(await everyPublicPet(apiUrl)), ...others];
}

// The short form of the busy-shelter check; `npm run bench -- sync-busy` runs it with 100k pets.
describe('a busy shelter during the first sync', () => {
  it('finishes in one sync --once while staff change 10 pets a second, and converges', async () => {
    const data = tempDir('sd-busy-');
    cleanups.push(data.remove);
    const server = await startApiServer({
      dataDir: path.join(data.dir, 'server'),
      port: 0,
      writeKey: WRITE_KEY,
      demo: true,
      demoPets: 2500,
      rateLimitPerHour: 1_000_000,
    });
    cleanups.push(() => server.close());
    const ids = await samplePetIds(server.apiUrl, WRITE_KEY, 2000);
    const writer = startBusyWriter(server.apiUrl, WRITE_KEY, ids, 10);
    const desk = path.join(data.dir, 'desk');
    const first = await runCliCommand([
      'sync',
      '--remote',
      server.apiUrl,
      '--key',
      WRITE_KEY,
      '--data-dir',
      desk,
      '--once',
    ]);
    const writes = await writer.stop();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(writes).toBeGreaterThan(0);
    expect((await runCliCommand(['sync', '--data-dir', desk, '--once'])).code).toBe(0);
    // The pets off the public list come by id, a bounded number a run: the runs after the first bring the rest.
    expect((await runCliCommand(['sync', '--data-dir', desk, '--once'])).code).toBe(0);
    expect(byId(await exported(desk, 'pets'))).toEqual(byId(await everyPet(server.apiUrl)));
  }, 120_000);
});
