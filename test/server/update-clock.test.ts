import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { ROOT } from '../run-command';
import { call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

/**
 * `updated_at` is every desk's sync cursor: a record written with a stamp below one already committed is never
 * pulled by a desk that synced past it. Two long-lived writers on one data folder (the server and a script that
 * stays open) must each stamp above everything the other committed.
 */
let server: RunningApiServer | undefined;
const stops: Array<() => void> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await server?.close();
  server = undefined;
});

/** test/server/long-lived-writer-child.ts: rename(id) resolves with the stamp of that write. */
function startSecondWriter(dataDir: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/server/long-lived-writer-child.ts', dataDir],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  stops.push(() => child.kill());
  const answers = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async rename(id: string): Promise<number> {
      child.stdin.write(`${id}\n`);
      const answer = await answers.next();
      if (answer.done) throw new Error('the second writer exited');
      return (JSON.parse(answer.value) as { updatedAt: number }).updatedAt;
    },
  };
}

describe('stamps of two long-lived writers', () => {
  it('a second process writing after the server stamps above the server’s stamps, and the other way round', async () => {
    const dataDir = tempDataDir('shelter-clock-');
    // The server's stamps run an hour ahead of the wall clock, as after re-rendering many pets (each takes the
    // next millisecond); the second writer's clock is the wall clock.
    server = await startApiServer({
      dataDir,
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      rateLimitPerHour: 1_000_000,
      now: () => Date.now() + 3_600_000,
    });
    const api = server.apiUrl;
    const create = async (name: string) => {
      const response = await call(api, '/pets', { method: 'POST', body: newPet({ name }) });
      expect(response.status, response.text).toBe(200);
      return response.json.id as string;
    };
    const rename = async (id: string, name: string) => {
      const response = await call(api, `/pets/${id}`, { method: 'PATCH', body: { name } });
      expect(response.status, response.text).toBe(200);
      return Date.parse(response.json.updated_at as string);
    };
    const first = await create('Biscuit');
    const second = await create('Mittens');
    const writer = startSecondWriter(dataDir);

    const scriptFirst = await writer.rename(first);
    const serverSecond = await rename(second, 'Clover');
    expect(serverSecond).toBeGreaterThan(scriptFirst);
    // The script's next write comes after the server's commit: its stamp must be above it, although the script
    // handed out a lower one last time and its own clock is an hour behind.
    const scriptAgain = await writer.rename(first);
    expect(scriptAgain).toBeGreaterThan(serverSecond);
    expect(await rename(second, 'Pepper')).toBeGreaterThan(scriptAgain);

    // A desk that synced up to the server's rename still pulls the script's later one.
    const since = new Date(serverSecond).toISOString();
    const changed = await call(api, `/pets?updated_since=${encodeURIComponent(since)}`);
    expect(changed.json.pets.map((pet: { id: string }) => pet.id).sort()).toEqual([first, second].sort());
  }, 60_000);
});
