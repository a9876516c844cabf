// Whether better-sqlite3's compiled addon was seen loading in a runtime (Node or Electron) as it is now: a stamp per
// runtime in node_modules/.cache/shelter-desk, written by scripts/ensure-native.mjs once the addon loads there, and
// good while the addon file (size, time) and the runtime's version stay the same. With it `npm start` need not start
// a runtime just to try the addon (two Node starts, 0.3 to 0.6 s of every start). Imports only node:fs, node:path,
// node:module and root.mjs, so it is quick to load.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './root.mjs';

const addonFile = (root) =>
  path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const stampFile = (target, root) =>
  path.join(root, 'node_modules', '.cache', 'shelter-desk', `native-${target}.json`);

/** The runtime's version: this Node's, or the installed Electron package's (undefined when there is none). */
function runtimeVersion(target, root) {
  if (target === 'node') return process.version;
  try {
    return createRequire(path.join(root, 'package.json'))('electron/package.json').version;
  } catch {
    return undefined;
  }
}

/** What the stamp holds when the addon as it is now loads in `target`; undefined when there is no addon. */
function stampNow(target, root) {
  const addon = fs.statSync(addonFile(root), { throwIfNoEntry: false });
  const version = runtimeVersion(target, root);
  if (!addon || !version) return undefined;
  return `${JSON.stringify({ target, version, size: addon.size, mtimeMs: addon.mtimeMs })}\n`;
}

/** Whether the addon of `root`'s better-sqlite3, as it is now, was seen loading in `target` ('node' or 'electron'). */
export function loadedBefore(target, root = ROOT) {
  const now = stampNow(target, root);
  if (!now) return false;
  try {
    return fs.readFileSync(stampFile(target, root), 'utf8') === now;
  } catch {
    return false;
  }
}

/** Notes that the addon, as it is now, loads in `target` (best effort: without the note the next start tries again). */
export function noteLoaded(target, root = ROOT) {
  const now = stampNow(target, root);
  if (!now) return;
  const file = stampFile(target, root);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, now);
    fs.renameSync(temporary, file);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}
