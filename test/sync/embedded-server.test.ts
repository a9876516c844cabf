import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../electron/desk/client';
import { getPet, type Mirror, statement } from '../../electron/desk/mirror';
import { openDeskMirror } from '../../electron/desk/outbox';
import { LIST_COLLECTIONS, readCheckpoint, runSync } from '../../electron/desk/sync';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { type Pet, petListResponseSchema } from '../../shared/contract';
import { tempDir } from '../temp-mirror';

const WRITE_KEY = 'w-key-0123456789abcdef';
let server: RunningApiServer;
let client: ApiClient;
let writer: ApiClient;
let mirror: Mirror;
const folder = tempDir('sd-sync-embedded-');
const dir = folder.dir;

/** Every public pet, read straight from the server's API. */
async function serverPublicPets(): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await writer.get(`/api/pets?limit=100&offset=${offset}`, { schema: petListResponseSchema });
    if (page.status !== 200) throw new Error('unexpected status');
    pets.push(...page.body.pets);
    if (!page.body.hasMore) return pets;
  }
}

/** The mirror's listed pets equal the server's public list, record for record. */
async function expectMirrorEqualsServer(): Promise<void> {
  const truth = await serverPublicPets();
  const listed = statement(mirror.db, `SELECT id FROM pet WHERE presence = 'listed' ORDER BY id`).all() as {
    id: string;
  }[];
  expect(listed.map((row) => row.id)).toEqual(truth.map((pet) => pet.id).sort());
  for (const pet of truth) expect(getPet(mirror.db, pet.id)?.record).toEqual(pet);
}

async function patchPet(id: string, body: Record<string, unknown>): Promise<Pet> {
  const result = await writer.send({
    method: 'PATCH',
    path: `/api/pets/${id}`,
    body: JSON.stringify(body),
    idempotencyKey: randomUUID(),
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as Pet;
}

beforeAll(async () => {
  server = await startApiServer({
    dataDir: path.join(dir, 'server'),
    port: 0,
    writeKey: WRITE_KEY,
    readKey: 'r-key-0123456789abcdef',
    demo: true,
    demoPets: 450,
    rateLimitPerHour: 1_000_000,
  });
  client = createApiClient({ baseUrl: server.apiUrl, apiKey: 'r-key-0123456789abcdef' });
  writer = createApiClient({ baseUrl: server.apiUrl, apiKey: WRITE_KEY });
  mirror = await openDeskMirror({ dataDir: path.join(dir, 'desk') });
});

afterAll(async () => {
  await client.close();
  await writer.close();
  await mirror.close();
  await server.close();
  folder.remove();
});

describe('sync against the embedded server over real HTTP', () => {
  it('mirrors the server exactly after the initial sync', async () => {
    const run = await runSync(mirror.db, client, { metadata: true });
    expect(run.complete).toBe(true);
    await expectMirrorEqualsServer();
    const people = statement(mirror.db, 'SELECT COUNT(*) AS n FROM person').get() as { n: number };
    expect(people.n).toBeGreaterThan(0);
    const fees = statement(mirror.db, `SELECT json FROM metadata WHERE key = 'adoption-fees'`).get();
    expect(fees).toBeDefined();
  });

  it('follows changes and new pets', async () => {
    const [first, second] = await serverPublicPets();
    await patchPet(first?.id ?? '', { description: 'Updated by staff', status: 'hold' });
    await patchPet(second?.id ?? '', { name: 'Renamed' });
    const created = await writer.send({
      method: 'POST',
      path: '/api/pets',
      body: JSON.stringify({
        name: 'Newcomer',
        species: 'rabbit',
        age_category: 'young',
        sex: 'female',
        size: 'small',
        status: 'available',
        health: 'good',
      }),
      idempotencyKey: 'create-newcomer',
    });
    expect(created.status).toBe(200);
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(true);
    await expectMirrorEqualsServer();
  });

  it('resumes a cut-off pull and converges', async () => {
    const pets = await serverPublicPets();
    for (const pet of pets.slice(0, 250)) await patchPet(pet.id, { special_needs: ['batch'] });
    const controller = new AbortController();
    let pages = 0;
    const run = runSync(mirror.db, client, {
      signal: controller.signal,
      onProgress: (progress) => {
        pages = progress.pagesDone;
        if (progress.phase === 'Pets' && progress.pagesDone === 1) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    expect(pages).toBe(1);
    const checkpoint = readCheckpoint(mirror.db, LIST_COLLECTIONS[0] as (typeof LIST_COLLECTIONS)[number]);
    const resumed = await runSync(mirror.db, client);
    expect(resumed.complete).toBe(true);
    expect(readCheckpoint(mirror.db, LIST_COLLECTIONS[0] as (typeof LIST_COLLECTIONS)[number])).not.toBe(
      checkpoint,
    );
    await expectMirrorEqualsServer();
  });

  it('keeps pets that leave the public list and relists them when they return', async () => {
    const [hidden, deleted] = await serverPublicPets();
    if (!hidden || !deleted) throw new Error('fixture');
    await patchPet(hidden.id, { show_public: false });
    server.staff.deletePet(deleted.id);
    // The ordinary sync sees it: the list's total no longer matches the mirror's listed pets.
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(true);
    expect(getPet(mirror.db, hidden.id)).toMatchObject({
      presence: 'unlisted',
      record: { show_public: false },
    });
    expect(getPet(mirror.db, deleted.id)?.presence).toBe('removed');
    await expectMirrorEqualsServer();

    await patchPet(hidden.id, { show_public: true });
    expect((await runSync(mirror.db, client)).complete).toBe(true);
    expect(getPet(mirror.db, hidden.id)?.presence).toBe('listed');
    await expectMirrorEqualsServer();
  });
});
