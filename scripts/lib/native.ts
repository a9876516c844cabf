import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadedBefore } from './native-stamp.mjs';
import { ROOT } from './paths';

/**
 * Makes better-sqlite3 load in the given runtime (see scripts/ensure-native.mjs); at once when the addon, as it is
 * now, was seen loading there before (scripts/lib/native-stamp.mjs).
 */
export function ensureNative(target: 'node' | 'electron'): void {
  if (loadedBefore(target)) return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-native.mjs'), target], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) throw new Error(`better-sqlite3 could not be prepared for ${target}.`);
}
