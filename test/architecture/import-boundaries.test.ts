import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');

/** Lints a one-line probe file placed in `folder` that imports `specifier`; returns Biome's output and exit code. */
async function lintProbe(folder: string, specifier: string): Promise<{ code: number; output: string }> {
  const file = path.join(
    ROOT,
    folder,
    `boundary-probe-${process.pid}-${Math.random().toString(36).slice(2)}.ts`,
  );
  await writeFile(file, `import { probe } from '${specifier}';\n\nexport const used = probe;\n`);
  try {
    await run(BIOME, ['lint', '--max-diagnostics=5', file], { cwd: ROOT });
    return { code: 0, output: '' };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  } finally {
    await rm(file, { force: true });
  }
}

/** The lint refuses the probe's import with a noRestrictedImports message that says `says`. */
async function isRefused(folder: string, specifier: string, says: string): Promise<void> {
  const { code, output } = await lintProbe(folder, specifier);
  expect(code).not.toBe(0);
  expect(output).toContain('noRestrictedImports');
  expect(output).toContain(says);
}

/** The lint lets the probe's import through. */
async function passes(folder: string, specifier: string): Promise<void> {
  const { code, output } = await lintProbe(folder, specifier);
  expect(output).not.toContain('noRestrictedImports');
  expect(code).toBe(0);
}

describe('import boundaries (biome.json) fail the lint when an arrow climbs', () => {
  const climbing: Array<[folder: string, specifier: string, says: string]> = [
    ['electron/desk/mirror', '../outbox', 'extraMigrations'],
    ['electron/desk/mirror', '../sync/sync-service', 'bottom floor'],
    ['electron/desk/client', '../mirror', 'only speaks HTTP'],
    ['electron/desk/sync', '../api/handler-registry', 'never import the handlers'],
    ['electron/desk/outbox', '../../cli/args', 'assembled on top of them'],
    ['electron/desk/sync', '../../server', 'assembled on top of them'],
    ['electron/server/domain', '../../desk/mirror', 'runs headless'],
    ['electron/server', '../cli/args', 'runs headless'],
    ['electron/platform', '../desk/sync', 'every layer stands on'],
    ['electron/desk/api', '../../browser-host', 'below every shell'],
    ['electron/browser-host', '../cli/args', 'never imports the CLI'],
    ['electron/desk/mirror', 'electron', 'Only electron/main and electron/preload'],
    ['electron/desk-process', 'electron', 'imports nothing of it'],
    ['shared/contract', '../../electron/desk/mirror', 'must not import from electron/'],
    ['renderer/src', '../../electron/desk/mirror', 'knows only DeskApi'],
  ];

  it.each(climbing)('%s importing %s is refused', isRefused);

  it.each([
    ['electron/desk/sync', '../mirror'],
    ['electron/desk/outbox', '../client'],
    ['electron/server/http', '../domain/api-error'],
    ['electron/cli', '../desk/api'],
  ])('%s importing %s (downwards) passes', passes);
});

describe("the renderer's folders (biome.json): shared folders never import a feature or app/", () => {
  // app/ on top; the feature folders (pets/, people/, intake/, sync/, …) import shared folders and each other;
  // the shared folders import down only: components/ -> lib/ -> bridge/ -> shared/.
  const climbing: Array<[folder: string, specifier: string, says: string]> = [
    ['renderer/src/components', '../pets/pet-view', 'never a feature'],
    ['renderer/src/components', '../a-feature-not-yet-written/its-screen', 'never a feature'],
    ['renderer/src/components', '../app/sections', 'never a feature'],
    ['renderer/src/lib', '../people/person-edit', 'never components/, a feature'],
    ['renderer/src/lib', '../components/empty-state', 'never components/'],
    ['renderer/src/bridge', '../lib/desk-error', 'bottom floor'],
    ['renderer/src/pets', '../app/sections', 'no feature imports it'],
    // Each folder's override replaces the renderer's patterns, so it repeats them: they still hold there.
    ['renderer/src/components', 'node:fs', 'knows only DeskApi'],
    ['renderer/src/lib', '../../../electron/desk/mirror', 'knows only DeskApi'],
    ['renderer/src/bridge', 'electron', 'knows only DeskApi'],
    ['renderer/src/people', 'better-sqlite3', 'knows only DeskApi'],
    ['renderer/src/app', 'node:path', 'knows only DeskApi'],
  ];

  it.each(climbing)('%s importing %s is refused', isRefused);

  it.each([
    ['renderer/src/components', '../lib/words'],
    ['renderer/src/components', '../bridge/hooks'],
    ['renderer/src/components', './empty-state'],
    ['renderer/src/lib', '../bridge/hooks'],
    ['renderer/src/bridge', '../../../shared/desk-api'],
    ['renderer/src/people', '../pets/pet-picker'],
    ['renderer/src/intake', '../components/screen-header'],
    ['renderer/src/app', '../pets/pets-screen'],
  ])('%s importing %s (downwards or sideways) passes', passes);
});
