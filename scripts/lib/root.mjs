// The repository root: the nearest folder up from this module that holds package.json (scripts/lib/../.. as a source;
// out/cli/../.. when bundled into out/cli/start.js or one of its chunks). Imports only node:fs and node:path.
import fs from 'node:fs';
import path from 'node:path';

function findRoot(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);
