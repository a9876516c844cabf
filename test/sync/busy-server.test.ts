import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../temp-mirror';
import { type AdversarialOptions, AdversarialServer } from './adversarial-server';
import { byId, exported, runCliCommand } from './cli-harness';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function shelter(options: AdversarialOptions): Promise<AdversarialServer> {
  const server = new AdversarialServer(options);
  await server.start();
  cleanups.push(() => server.close());
  server.addPets(340, options.secondPrecision ?? false);
  server.addPeople(130, 'adopter');
  server.addPeople(30, 'foster');
  return server;
}

/**
 * `sync --once` until it exits 0 (at most `runs` times); returns the exit codes. A run that does not exit 0 prints
 * what the desk said, so a failing test shows why.
 */
async function syncUntilDone(server: AdversarialServer, dataDir: string, runs: number): Promise<number[]> {
  const codes: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const args = ['sync', '--data-dir', dataDir, '--once'];
    if (run === 0) args.push('--remote', server.origin, '--key', 'key');
    const result = await runCliCommand(args);
    codes.push(result.code);
    if (result.code === 0) break;
    console.warn(`sync --once run ${run + 1} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  }
  return codes;
}

/** The exported mirror equals the server's public lists, field by field. */
async function expectExportEqualsServer(server: AdversarialServer, dataDir: string): Promise<void> {
  expect(byId(await exported(dataDir, 'pets'))).toEqual(byId(server.publicPets()));
  const people = [...server.people.values()];
  expect(byId(await exported(dataDir, 'adopters'))).toEqual(byId(people.filter((p) => p.type === 'adopter')));
  expect(byId(await exported(dataDir, 'fosters'))).toEqual(byId(people.filter((p) => p.type === 'foster')));
}

describe('sync --once converges on a busy, unordered server', () => {
  const quiet: Array<[string, AdversarialOptions]> = [
    ['a new order on every request', { order: 'shuffle', seed: 5 }],
    ['a change before every page request (updated order)', { changeBeforeEveryPage: true, seed: 6 }],
    [
      'a change before every page request (arbitrary order)',
      { changeBeforeEveryPage: true, order: 'arbitrary', seed: 7 },
    ],
    [
      'a change before every page request (newest first)',
      { changeBeforeEveryPage: true, order: 'newest-first', seed: 8 },
    ],
    [
      'a change before every page and a new order on every request',
      { changeBeforeEveryPage: true, order: 'shuffle', seed: 9 },
    ],
    ['shared second-precision timestamps', { secondPrecision: true, changeBeforeEveryPage: true, seed: 10 }],
    ['a clock five hours ahead', { clockOffsetMs: 5 * 3_600_000, changeBeforeEveryPage: true, seed: 11 }],
    [
      'record stamps two seconds ahead of the clock it reports, in a new order every request',
      { stampLeadMs: 2_000, order: 'shuffle', changeBeforeEveryPage: true, seed: 13 },
    ],
    [
      'a clock seven hours behind',
      { clockOffsetMs: -7 * 3_600_000, order: 'shuffle', changeBeforeEveryPage: true, seed: 12 },
    ],
  ];
  for (const [name, options] of quiet) {
    it(`in one run: ${name}`, async () => {
      const server = await shelter(options);
      const { dir, remove } = tempDir('sd-sync-');
      cleanups.push(remove);
      expect(await syncUntilDone(server, dir, 1)).toEqual([0]);
      // The busy server keeps changing while the desk reads: stop it and check what the desk holds is current
      // up to what one more ordinary sync brings.
      server.options.changeBeforeEveryPage = false;
      expect(await syncUntilDone(server, dir, 1)).toEqual([0]);
      await expectExportEqualsServer(server, dir);
    });
  }

  for (const seed of [21, 22, 23, 24]) {
    it(`within three runs: a seeded random mix with faults (seed ${seed})`, async () => {
      const orders = ['updated', 'arbitrary', 'newest-first', 'shuffle'] as const;
      const server = await shelter({
        seed,
        order: orders[seed % 4],
        changeBeforeEveryPage: seed % 2 === 0,
        secondPrecision: seed % 3 === 0,
        clockOffsetMs: ((seed % 5) - 2) * 3_600_000,
        failRate: 0.04,
        rateLimitRate: 0.04,
        dropRate: 0.03,
      });
      const { dir, remove } = tempDir('sd-sync-');
      cleanups.push(remove);
      const codes = await syncUntilDone(server, dir, 3);
      expect(codes[codes.length - 1]).toBe(0);
      server.options = {
        ...server.options,
        changeBeforeEveryPage: false,
        failRate: 0,
        rateLimitRate: 0,
        dropRate: 0,
      };
      expect(await syncUntilDone(server, dir, 1)).toEqual([0]);
      await expectExportEqualsServer(server, dir);
    });
  }
});
