import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository root: the nearest folder up from this module that holds package.json (scripts/lib/../.. as a
 * source; out/cli/.. /.. when built into out/cli/start.js or one of its chunks).
 */
export const ROOT = findRoot(import.meta.dirname);
export const RENDERER_OUT = path.join(ROOT, 'out', 'renderer');
export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'shelter-desk');

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}
