import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths';

/** Makes better-sqlite3 load in the given runtime (see scripts/ensure-native.mjs). */
export function ensureNative(target: 'node' | 'electron'): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-native.mjs'), target], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) throw new Error(`better-sqlite3 could not be prepared for ${target}.`);
}
