import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { deskCli, run } from '../run-command';
import { call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

/**
 * Issue #16/#17: a standalone shelter's server keeps running while a staff script or `npm run cli` writes to the
 * same database from another process. What the server holds in memory (response caches, list views, search
 * words, settings, keys) must follow from the next request on, and only what changed may change.
 */
let server: RunningApiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(dataDir: string): Promise<string> {
  server = await startApiServer({
    dataDir,
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    rateLimitPerHour: 1_000_000,
  });
  return server.apiUrl;
}

type Step = { rename: [string, string] } | { fee: ['dog' | 'cat', number] };

/** test/server/foreign-writer-child.ts in its own process (its own connection to the database). */
async function writeFromAnotherProcess(dataDir: string, steps: Step[]): Promise<void> {
  const result = await run(
    process.execPath,
    ['--import', 'tsx', 'test/server/foreign-writer-child.ts', dataDir, JSON.stringify(steps)],
    { timeoutMs: 60_000 },
  );
  expect(result.code, result.stderr).toBe(0);
}

async function createPet(api: string, overrides: Record<string, unknown>): Promise<string> {
  const response = await call(api, '/pets', { method: 'POST', body: newPet(overrides) });
  expect(response.status, response.text).toBe(200);
  return response.json.id as string;
}

/** A GET asked twice, so that the response caches keep it (they keep a response from its second request). */
async function warm(api: string, path: string) {
  await call(api, path);
  const response = await call(api, path);
  expect(response.status, response.text).toBe(200);
  return { etag: response.headers.get('etag'), text: response.text };
}

describe('writes from another process reach the running server', () => {
  it('a renamed pet, a fee change and a command-line key count from the next request; the rest keeps its bytes', async () => {
    const dataDir = tempDataDir('shelter-foreign-');
    const api = await start(dataDir);
    const dog = await createPet(api, { name: 'Biscuit', species: 'dog' });
    const cat = await createPet(api, { name: 'Mittens', species: 'cat' });
    const rabbit = await createPet(api, { name: 'Clover', species: 'rabbit' });
    const dogById = await warm(api, `/pets/${dog}`);
    const dogList = await warm(api, '/pets?species=dog');
    const catById = await warm(api, `/pets/${cat}`);
    const search = await warm(api, '/pets?search=Biscuit');
    const rabbitById = await warm(api, `/pets/${rabbit}`);
    const rabbitList = await warm(api, '/pets?species=rabbit');
    expect(JSON.parse(search.text).total).toBe(1);

    await writeFromAnotherProcess(dataDir, [{ rename: [dog, 'Zanzibar'] }, { fee: ['cat', 30] }]);

    const renamed = await call(api, `/pets/${dog}`, { headers: { 'if-none-match': dogById.etag as string } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe('Zanzibar');
    expect(renamed.headers.get('etag')).not.toBe(dogById.etag);
    const list = await call(api, '/pets?species=dog');
    expect(list.json.pets.map((pet: { name: string }) => pet.name)).toEqual(['Zanzibar']);
    expect(list.headers.get('etag')).not.toBe(dogList.etag);
    expect((await call(api, '/pets?search=Biscuit')).json.total).toBe(0);
    expect((await call(api, '/pets?search=Zanzibar')).json.pets[0]?.id).toBe(dog);
    // A typo of the new name: the server learned the word the other process stored.
    expect((await call(api, '/pets?search=Zanzibr')).json.pets[0]?.id).toBe(dog);
    const feed = await call(api, `/pets/${cat}`);
    expect(feed.json.global_adoption_fee).toBe(30);
    expect(feed.headers.get('etag')).not.toBe(catById.etag);

    // What the other process did not touch keeps the same bytes and ETags.
    for (const [path, before] of [
      [`/pets/${rabbit}`, rabbitById],
      ['/pets?species=rabbit', rabbitList],
    ] as const) {
      const again = await call(api, path);
      expect(again.text).toBe(before.text);
      expect(again.headers.get('etag')).toBe(before.etag);
      expect((await call(api, path, { headers: { 'if-none-match': before.etag as string } })).status).toBe(
        304,
      );
    }

    // A key made by the real command line works at once; revoked there, it stops at once.
    const created = await deskCli([
      'keys',
      'create',
      '--read',
      '--name',
      'Script',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string };
    expect((await call(api, `/pets/${dog}`, { key: key.key })).json.name).toBe('Zanzibar');
    expect((await deskCli(['keys', 'revoke', key.id, '--data-dir', dataDir])).code).toBe(0);
    expect((await call(api, `/pets/${dog}`, { key: key.key })).status).toBe(401);
  }, 120_000);

  it('finishes a fee change that another process committed and left to re-render', async () => {
    const dataDir = tempDataDir('shelter-foreign-job-');
    const api = await start(dataDir);
    // More dogs than a change re-renders in its own transaction: the other process exits with the job open.
    for (let i = 0; i < 130; i++) await createPet(api, { name: `Dog ${i}`, species: 'dog' });
    const before = await warm(api, '/pets?species=dog&limit=200');
    expect(JSON.parse(before.text).pets[0]).not.toHaveProperty('global_adoption_fee');

    await writeFromAnotherProcess(dataDir, [{ fee: ['dog', 40] }]);

    // The next request sees the change and carries on its re-rendering.
    expect((await call(api, '/pets?limit=1')).status).toBe(200);
    expect(server?.pendingRestamps()).toBeLessThanOrEqual(1);
    await server?.settled();
    expect(server?.pendingRestamps()).toBe(0);
    const after = await call(api, '/pets?species=dog&limit=200');
    expect(after.json.total).toBe(130);
    expect(
      new Set(after.json.pets.map((pet: { global_adoption_fee?: number }) => pet.global_adoption_fee)),
    ).toEqual(new Set([40]));
    expect(after.headers.get('etag')).not.toBe(before.etag);
  }, 120_000);
});
