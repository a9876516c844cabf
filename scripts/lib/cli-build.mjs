// Builds the command line (electron/cli/desk-cli.ts and serve.ts) ahead of time into out/cli with esbuild, and
// writes out/cli/manifest.json: every repository file the build read, with its size, time and hash, which
// scripts/lib/cli-manifest.mjs compares with the files on disk to tell a stale build. Run by `npm install`
// (prepare), `npm run build` and, when the sources changed since, by the launcher (scripts/shelter-desk.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { CLI_OUT, MANIFEST_FILE, ROOT, recordFile } from './cli-manifest.mjs';

/** The two programs: `npm run cli` and `npm run serve`. */
const ENTRIES = {
  'desk-cli': 'electron/cli/desk-cli.ts',
  serve: 'electron/cli/serve.ts',
};

/**
 * Files that shape the build without being imported: this script, the compiler settings esbuild reads, the
 * dependency versions (packages are bundled from node_modules), and the print fonts copied beside the bundle.
 */
function configInputs() {
  const fonts = fs.readdirSync(path.join(ROOT, 'resources/fonts')).map((file) => `resources/fonts/${file}`);
  return [
    'scripts/lib/cli-build.mjs',
    'scripts/lib/cli-manifest.mjs',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'tsconfig.node.json',
    ...fonts,
  ].filter((file) => fs.existsSync(path.join(ROOT, file)));
}

/** Writes a file whole or not at all: a command starting meanwhile sees the old file or the new one. */
function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/**
 * Bundles both programs into out/cli, one ES module each plus shared chunks (a command's own code is a chunk loaded
 * when it is called). As the app's main build (electron.vite.config.ts) does for the same code:
 * - better-sqlite3 stays in node_modules (native; it finds its compiled addon beside its own files), and so does
 *   pdfkit, which reads its standard font metrics from its package folder at run time; the rest of the
 *   dependencies are bundled in, so a start reads a few files rather than hundreds of modules;
 * - the print fonts are copied to out/cli/fonts, beside the bundle, where electron/desk/print/fonts.ts looks
 *   first (the app's build puts them in out/main/fonts);
 * - worker threads need no entry file: they run source strings (electron/platform/driver-worker.ts) and find
 *   better-sqlite3 from the bundle's own location; the demo shelter's JSON is imported, so it is inside the bundle.
 * Chunk names carry a hash and old ones are kept for a minute, so a command started from the previous build can
 * still load its chunks; entries and the manifest are replaced whole.
 */
export async function buildCli() {
  const staging = path.join(CLI_OUT, `.staging-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: staging,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // exceljs (import of .xlsx) is large CommonJS with its own optional requires, and sharp (photos) loads its
    // platform's libvips build: both are loaded from node_modules as they are.
    external: ['better-sqlite3', 'pdfkit', 'electron', 'exceljs', 'sharp'],
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    banner: {
      // Bundled CommonJS packages (undici, qrcode) call require(); an ES module has none of its own.
      js: "import { createRequire as bannerCreateRequire } from 'node:module'; const require = bannerCreateRequire(import.meta.url);",
    },
  });

  fs.mkdirSync(path.join(CLI_OUT, 'chunks'), { recursive: true });
  const chunks = fs.readdirSync(path.join(staging, 'chunks'));
  for (const chunk of chunks) {
    const target = path.join(CLI_OUT, 'chunks', chunk);
    if (!fs.existsSync(target)) fs.renameSync(path.join(staging, 'chunks', chunk), target);
  }
  for (const name of Object.keys(ENTRIES)) {
    writeAtomically(path.join(CLI_OUT, `${name}.js`), fs.readFileSync(path.join(staging, `${name}.js`)));
  }
  fs.rmSync(staging, { recursive: true, force: true });
  const aMinuteAgo = Date.now() - 60_000;
  for (const chunk of fs.readdirSync(path.join(CLI_OUT, 'chunks'))) {
    const file = path.join(CLI_OUT, 'chunks', chunk);
    if (!chunks.includes(chunk) && fs.statSync(file).mtimeMs < aMinuteAgo) fs.rmSync(file, { force: true });
  }

  const fonts = path.join(CLI_OUT, 'fonts');
  fs.mkdirSync(fonts, { recursive: true });
  for (const file of fs.readdirSync(path.join(ROOT, 'resources/fonts'))) {
    fs.copyFileSync(path.join(ROOT, 'resources/fonts', file), path.join(fonts, file));
  }

  // The metafile names inputs relative to ROOT; packages (node_modules, possibly a link to elsewhere) are covered
  // by package-lock.json instead.
  const sources = Object.keys(result.metafile.inputs).filter(
    (input) => !input.includes('node_modules/') && !input.startsWith('..') && !input.includes(':'),
  );
  const files = {};
  for (const file of [...new Set([...sources, ...configInputs()])].sort()) files[file] = recordFile(file);
  writeAtomically(MANIFEST_FILE, `${JSON.stringify({ files }, null, 1)}\n`);
  return { files: Object.keys(files).length };
}
