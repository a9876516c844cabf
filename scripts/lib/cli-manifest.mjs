// Whether out/cli was built from the files now on disk: out/cli/manifest.json (written by cli-build.mjs) lists
// every repository file the build read with its size, modification time and SHA-256. Fast path: size and time
// all match (a stat per file, a few milliseconds). A file whose time moved (a checkout, a touch) is hashed, and
// counts as changed only when its contents did. Imports only node:fs and node:path, so the launcher stays quick.
import fs from 'node:fs';
import path from 'node:path';

/** The repository root (scripts/lib/../..). */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI_OUT = path.join(ROOT, 'out', 'cli');
export const MANIFEST_FILE = path.join(CLI_OUT, 'manifest.json');
/**
 * What a build writes besides its chunks: the programs as ES modules (what the launcher and `npm start` run) and the
 * startup snapshot of the command line's two (what `npm run cli` and `npm run serve` start from).
 */
export const CLI_OUTPUTS = ['desk-cli.js', 'serve.js', 'start.js', 'cli.blob'];

function hashOf(file, root) {
  // Loaded only when a file needs hashing: most calls only stat.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(fs.readFileSync(path.join(root, file)))
    .digest('hex');
}

/** What the manifest keeps of one file (a path relative to `root`, with forward slashes). */
export function recordFile(file, root = ROOT) {
  const stat = fs.statSync(path.join(root, file));
  return { size: stat.size, mtimeMs: stat.mtimeMs, sha256: hashOf(file, root) };
}

/**
 * Why `root`'s out/cli must be rebuilt before it runs, or undefined when it is current: no build yet, an output
 * missing, a build by another Node.js (a snapshot runs only on the Node that wrote it), or the first input file
 * that changed or is gone.
 */
export function staleReason(outputs = CLI_OUTPUTS, root = ROOT) {
  const out = path.join(root, 'out', 'cli');
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  } catch {
    return 'no build in out/cli yet';
  }
  for (const output of outputs) {
    if (!fs.existsSync(path.join(out, output))) return `out/cli/${output} is missing`;
  }
  if (manifest.node !== process.version)
    return `out/cli was built by Node.js ${manifest.node}, this is ${process.version}`;
  let touched = false;
  // The root joined by hand: path.join normalises each of some 300 paths, a third of this check's time.
  const prefix = `${root}${path.sep}`;
  for (const [file, recorded] of Object.entries(manifest.files ?? {})) {
    const stat = fs.statSync(prefix + file, { throwIfNoEntry: false });
    if (!stat) return `${file} is gone`;
    if (stat.size !== recorded.size) return `${file} changed`;
    if (stat.mtimeMs !== recorded.mtimeMs) {
      if (hashOf(file, root) !== recorded.sha256) return `${file} changed`;
      recorded.mtimeMs = stat.mtimeMs;
      touched = true;
    }
  }
  // Same contents, new times: noted, so the next call needs only the stats again (best effort).
  if (touched) {
    const temporary = path.join(out, `manifest.json.${process.pid}.tmp`);
    try {
      fs.writeFileSync(temporary, `${JSON.stringify(manifest, null, 1)}\n`);
      fs.renameSync(temporary, path.join(out, 'manifest.json'));
    } catch {
      fs.rmSync(temporary, { force: true });
    }
  }
  return undefined;
}

/**
 * Rebuilds out/cli when a file it was built from changed (`staleReason`), so no caller runs a stale build. `subject`
 * names the build in messages ("the command line"); with `announce`, the rebuild says so on stderr first (it takes a
 * few seconds). Exits with a message when the build fails (esbuild has printed the file, line and column). Returns
 * undefined when out/cli is current, or the reason it is stale when it cannot be built here: esbuild, a development
 * dependency, is not installed.
 */
export async function buildIfStale(subject, { announce = false } = {}) {
  const stale = staleReason();
  if (!stale) return undefined;
  let buildCli;
  try {
    ({ buildCli } = await import('./cli-build.mjs'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return stale;
  }
  if (announce) console.error(`Building ${subject} first (${stale})…`);
  try {
    await buildCli();
  } catch {
    console.error(`${subject[0].toUpperCase()}${subject.slice(1)} could not be built (${stale}).`);
    process.exit(1);
  }
  return undefined;
}
