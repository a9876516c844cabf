import { afterEach, describe, expect, it } from 'vitest';
import { statement } from '../../electron/desk/mirror';
import { LIST_COLLECTIONS, readCheckpoint } from '../../electron/desk/sync';
import { tempDir, withDeskMirror } from '../temp-mirror';
import { type AdversarialOptions, AdversarialServer } from './adversarial-server';
import { byId, exported, runCliCommand } from './cli-harness';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const [pets] = LIST_COLLECTIONS;

/** Checkpoint and mirrored rows of a data folder (opened and closed around the read). */
function mirrorState(dataDir: string): Promise<{ checkpoint: string | null; pets: number; json: string }> {
  return withDeskMirror(dataDir, (mirror) => {
    const rows = statement(mirror.db, 'SELECT id, server_json FROM pet ORDER BY id').all();
    if (!pets) throw new Error('pets collection missing');
    return { checkpoint: readCheckpoint(mirror.db, pets), pets: rows.length, json: JSON.stringify(rows) };
  });
}

const BOUNDS = ['--request-deadline', '2', '--max-response-mb', '32'];

describe('sync --once against a misbehaving server stops, bounded and honest', () => {
  const modes: Array<[NonNullable<AdversarialOptions['misbehave']>, RegExp, boolean]> = [
    // mode, what stderr says, whether the mirror is left exactly as it was
    ['endless-has-more', /kept saying more pets follow/, false],
    ['lying-total', /seen \d+ of the \d+ records of the list's total/, false],
    ['empty-pages', /empty page/, false],
    ['endless-body', /longer than 2 s in total/, true],
    ['not-json', /not JSON/, true],
    ['huge-body', /larger than the desk accepts/, true],
  ];
  for (const [mode, says, untouched] of modes) {
    it(`${mode}: exits non-zero with the request id, keeps what it validated, checkpoint unmoved`, async () => {
      const server = new AdversarialServer({ seed: 3 });
      await server.start();
      cleanups.push(() => server.close());
      server.addPets(250);
      server.addPeople(20, 'adopter');
      const { dir, remove } = tempDir('sd-sync-');
      cleanups.push(remove);
      const first = await runCliCommand([
        'sync',
        '--remote',
        server.origin,
        '--key',
        'key',
        '--data-dir',
        dir,
        '--once',
      ]);
      expect(first.code).toBe(0);
      const before = await mirrorState(dir);
      expect(before.checkpoint).not.toBeNull();

      server.addPets(230);
      server.options.misbehave = mode;
      const started = performance.now();
      const run = await runCliCommand(['sync', '--data-dir', dir, '--once', ...BOUNDS]);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(says);
      expect(run.stderr).toMatch(/request id [0-9a-f-]{36}/);
      const after = await mirrorState(dir);
      expect(after.checkpoint).toBe(before.checkpoint);
      if (untouched) expect(after.json).toBe(before.json);
      else expect(after.pets).toBeGreaterThanOrEqual(before.pets);

      // Once the server behaves, the next ordinary sync finishes the job.
      server.options.misbehave = undefined;
      expect((await runCliCommand(['sync', '--data-dir', dir, '--once'])).code).toBe(0);
      expect(byId(await exported(dir, 'pets'))).toEqual(byId(server.publicPets()));
    }, 30_000);
  }
});
