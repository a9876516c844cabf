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

  it.each(climbing)('%s importing %s is refused', async (folder, specifier, says) => {
    const { code, output } = await lintProbe(folder, specifier);
    expect(code).not.toBe(0);
    expect(output).toContain('noRestrictedImports');
    expect(output).toContain(says);
  });

  it.each([
    ['electron/desk/sync', '../mirror'],
    ['electron/desk/outbox', '../client'],
    ['electron/server/http', '../domain/api-error'],
    ['electron/cli', '../desk/api'],
  ])('%s importing %s (downwards) passes', async (folder, specifier) => {
    const { code, output } = await lintProbe(folder, specifier);
    expect(output).not.toContain('noRestrictedImports');
    expect(code).toBe(0);
  });
});
