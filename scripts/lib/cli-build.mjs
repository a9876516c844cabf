// Builds the command line (electron/cli: `npm run cli` and `npm run serve`) ahead of time into out/cli with esbuild:
// - desk-cli.js and serve.js, ES modules with a chunk per command, which the launcher (scripts/shelter-desk.mjs, the
//   `shelter-desk` bin) runs;
// - cli.blob, a V8 startup snapshot of both programs (scripts/lib/cli-snapshot.mjs), which `npm run cli` and
//   `npm run serve` start from: their modules are then evaluated already, which took most of a command's start;
// - manifest.json: every repository file the build read, with its size, time and hash, and the Node.js version,
//   which scripts/lib/cli-manifest.mjs compares with the files on disk to tell a stale build.
// Run by `npm install` (prepare), `npm run build` and, when the sources changed since, by the launcher.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { CLI_OUT, MANIFEST_FILE, ROOT, recordFile } from './cli-manifest.mjs';

/** The programs: `npm run cli`, `npm run serve` and `npm start` (scripts/start.mjs runs it). */
const ENTRIES = {
  'desk-cli': 'electron/cli/entries/desk-cli.ts',
  serve: 'electron/cli/entries/serve.ts',
  start: 'scripts/lib/start-entry.ts',
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

/**
 * zod's namespace (`import { z } from 'zod'`) carries every locale's messages, 340 kB that each command would
 * load; the command line speaks English (zod's default), so its locale list is English alone.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    const zodFolder = `${path.sep}node_modules${path.sep}zod${path.sep}`;
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(zodFolder)
        ? {
            path: path.resolve(path.dirname(args.importer), '../locales/english-only.js'),
            namespace: 'zod-english',
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * A module the startup snapshot cannot hold, or that holds what Node 20 cannot write into one:
 * - Node's networking modules (their HTTP parser, HTTP/2 sessions and TLS contexts are native);
 * - undici, which looks at node:http's classes as it loads;
 * - node:worker_threads: in a process started from a snapshot that holds it, Node 20 starts no worker.
 * The bundle gets a stand-in with the same exports, loaded for real on first use (a database opened, a server
 * started, a request sent): plain data (status codes, HTTP/2 constants) is kept as it is; a module that is one
 * function (better-sqlite3's Database) stands in as that function.
 */
const LOADED_ON_FIRST_USE = /^(undici|node:(http|https|http2|tls|worker_threads))$/;

/**
 * better-sqlite3's JavaScript is in the snapshot; its compiled addon, which a snapshot cannot hold, is loaded when the
 * first database opens (better-sqlite3 asks for it then, not as it loads), from the package's build folder: loading
 * the package's modules and the \`bindings\` search for the addon (a dozen paths tried) took a tenth of a
 * \`keys list\`. Where the addon is not at that place, \`bindings\` looks for it as usual.
 */
const sqliteAddonOnFirstUse = {
  name: 'sqlite-addon-on-first-use',
  setup(build) {
    build.onResolve({ filter: /^bindings$/ }, (args) =>
      args.importer.includes(`${path.sep}better-sqlite3${path.sep}`)
        ? { path: 'bindings', namespace: 'sqlite-addon' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'sqlite-addon' }, () => ({
      loader: 'js',
      contents: `
        module.exports = (name) => {
          const load = globalThis.__shelterDeskRequire;
          if (!load) throw new Error('better-sqlite3 opened a database as the bundle loads: it cannot be in the snapshot');
          const path = require('node:path');
          // The checkout's node_modules (out/cli/../../node_modules), where npm installs it; else wherever Node finds it.
          const installed = path.join(globalThis.__shelterDeskCliDir, '..', '..', 'node_modules', 'better-sqlite3');
          try {
            return load(path.join(installed, 'build', 'Release', name));
          } catch (error) {
            if (error?.code !== 'MODULE_NOT_FOUND') throw error;
            const packageDir = path.dirname(load.resolve('better-sqlite3/package.json'));
            return load('bindings')({ bindings: name, module_root: packageDir });
          }
        };`,
    }));
  },
};

const loadedOnFirstUse = {
  name: 'loaded-on-first-use',
  setup(build) {
    build.onResolve({ filter: LOADED_ON_FIRST_USE }, (args) => ({
      path: args.path,
      namespace: 'on-first-use',
    }));
    build.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => {
      const real = createRequire(path.join(ROOT, 'package.json'))(args.path);
      const oneFunction = typeof real === 'function';
      const data = {};
      const later = [];
      if (!oneFunction) {
        for (const [key, value] of Object.entries(real)) {
          if (isPlainData(value)) data[key] = value;
          else later.push(key);
        }
      }
      const standIn = oneFunction
        ? `new Proxy(function ${real.name || 'standIn'}() {}, {
            construct: (_, args) => Reflect.construct(load(), args),
            apply: (_, self, args) => Reflect.apply(load(), self, args),
            get: (_, key) => load()[key],
            has: (_, key) => key in load(),
          })`
        : JSON.stringify(data);
      return {
        loader: 'js',
        contents: `
          let real;
          const load = () => {
            if (!globalThis.__shelterDeskRequire) {
              throw new Error(${JSON.stringify(`${args.path} is used as the bundle loads: it cannot be in the snapshot`)});
            }
            return (real ??= globalThis.__shelterDeskRequire(${JSON.stringify(args.path)}));
          };
          module.exports = ${standIn};
          for (const key of ${JSON.stringify(later)}) {
            Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });
          }`,
      };
    });
  },
};

/**
 * Data larger than this (as JSON) stays out of the snapshot, which every command deserialises as it starts (node:tls's
 * rootCertificates are 220 kB).
 */
const SNAPSHOT_DATA_BYTES = 4096;

/**
 * Strings, numbers, booleans, and arrays and plain objects of them, small enough to be in the snapshot: kept in a
 * stand-in as they are.
 */
function isPlainData(value) {
  const scalar = (item) => item === null || ['string', 'number', 'boolean'].includes(typeof item);
  const small = () => JSON.stringify(value).length <= SNAPSHOT_DATA_BYTES;
  if (scalar(value)) return small();
  if (Array.isArray(value)) return value.every(scalar) && small();
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(scalar) && small();
}

/**
 * A JSON file larger than `SNAPSHOT_DATA_BYTES` that the bundle imports (the demo shelter's photos, 240 kB) is read
 * from the repository when first used rather than held in the snapshot: a stand-in whose top-level keys read the
 * file. The manifest still lists the file, so a change to it rebuilds out/cli as before.
 */
const largeJsonOnFirstUse = {
  name: 'large-json-on-first-use',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = fs.readFileSync(args.path, 'utf8');
      if (text.length <= SNAPSHOT_DATA_BYTES) return undefined;
      const keys = Object.keys(JSON.parse(text));
      const fromRoot = path.relative(ROOT, args.path).split(path.sep);
      return {
        loader: 'js',
        contents: `
          let data;
          const load = () => {
            if (!globalThis.__shelterDeskRequire) {
              throw new Error(${JSON.stringify(`${fromRoot.join('/')} is read as the bundle loads: it cannot be left out of the snapshot`)});
            }
            const file = require('node:path').join(globalThis.__shelterDeskCliDir, '..', '..', ...${JSON.stringify(fromRoot)});
            return (data ??= JSON.parse(require('node:fs').readFileSync(file, 'utf8')));
          };
          for (const key of ${JSON.stringify(keys)}) {
            Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });
          }`,
      };
    });
  },
};

/**
 * The startup snapshot that `npm run cli` and `npm run serve` start from (scripts/lib/cli-snapshot.mjs): both programs
 * in one CommonJS bundle, out/cli/cli.cjs, which Node runs once to write out/cli/cli.blob. CommonJS has no
 * import.meta: its url and dirname name the bundle, set again when a command starts from the blob (until then, the
 * banner's). The bundle's require() becomes the bundle's own at that point too: while the blob is built, Node
 * allows only its built-in modules.
 */
async function buildSnapshot(staging) {
  /**
   * Two gaps of Node 20 while it builds a snapshot, bridged for the build only and undone before the heap is written:
   * - arrays lack the copying methods (toSorted, toReversed, with), which node:http calls as it loads: stand-ins
   *   serve the build, and V8's own are there again when a command starts from the blob;
   * - there is no WebAssembly, which Node's own fetch needs when it loads, and undici (loading, for its cookie
   *   helpers, which the desk does not use) looks at the global Headers: the web globals read as absent meanwhile.
   */
  function bridgeSnapshotBuildGaps() {
    const v8 = require('node:v8');
    if (!v8.startupSnapshot.isBuildingSnapshot()) return;
    const standIns = {
      toSorted(compare) {
        return [...this].sort(compare);
      },
      toReversed() {
        return [...this].reverse();
      },
      with(index, value) {
        const copy = [...this];
        copy[index < 0 ? copy.length + index : index] = value;
        return copy;
      },
    };
    const added = Object.keys(standIns).filter((name) => !(name in Array.prototype));
    for (const name of added) {
      Object.defineProperty(Array.prototype, name, {
        value: standIns[name],
        writable: true,
        configurable: true,
      });
    }
    const webGlobals = ['fetch', 'FormData', 'Headers', 'Request', 'Response', 'WebSocket', 'EventSource'];
    const hidden = new Map();
    for (const name of webGlobals) {
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
      if (!descriptor?.get) continue;
      hidden.set(name, descriptor);
      Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
    }
    v8.startupSnapshot.addSerializeCallback(() => {
      for (const name of added) delete Array.prototype[name];
      for (const [name, descriptor] of hidden) Object.defineProperty(globalThis, name, descriptor);
    });
  }

  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: 'scripts/lib/cli-snapshot.mjs' },
    outdir: staging,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Also out of the snapshot, loaded from node_modules when a command uses them: what only printing (qrcode,
    // marked) and the shelter's certificate (@peculiar/x509 and its ASN.1 packages) need, 0.4 MB of source every
    // other command would deserialise at start.
    // esbuild: the rebuild a stale call needs (cli-manifest.mjs's buildIfStale) is the launcher's, never the
    // snapshot's; bundled, its package only made esbuild warn on every build.
    external: ['pdfkit', 'electron', 'exceljs', 'sharp', 'qrcode', 'marked', '@peculiar/x509', 'esbuild'],
    plugins: [englishOnlyZod, loadedOnFirstUse, sqliteAddonOnFirstUse, largeJsonOnFirstUse],
    // import() of the packages loaded on demand (pdfkit, exceljs, sharp) as require(): code from a snapshot has no
    // dynamic import.
    supported: { 'dynamic-import': false },
    minify: true,
    define: {
      'import.meta.url': 'globalThis.__shelterDeskCliUrl',
      'import.meta.dirname': 'globalThis.__shelterDeskCliDir',
      ...versionDefine(),
    },
    banner: {
      js: [
        'globalThis.__shelterDeskCliDir = __dirname;',
        "globalThis.__shelterDeskCliUrl = require('node:url').pathToFileURL(__filename).href;",
        'var __snapshotBuildRequire = require;',
        'var require = (id) => (globalThis.__shelterDeskRequire ?? __snapshotBuildRequire)(id);',
        `(${bridgeSnapshotBuildGaps})();`,
      ].join('\n'),
    },
    metafile: true,
    logLevel: 'warning',
  });
  // One character outside ASCII makes V8 hold the whole 2 MB source in two bytes a character, in every command's
  // heap; esbuild escapes them in strings but leaves some in regular expressions (a \u escape means the same there).
  const bundle = path.join(staging, 'cli.cjs');
  const source = fs.readFileSync(bundle, 'utf8');
  fs.writeFileSync(
    bundle,
    source.replace(
      /[\u0080-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
  const blob = path.join(staging, 'cli.blob');
  // --no-warnings: Node says, for each built-in module the bundle loads, that snapshots of it are not yet verified.
  // NODE_OPTIONS goes: a V8 flag there (a heap size, say) would be part of the blob, which then starts only with it.
  // Its output goes to stderr: this may run inside a command whose stdout is data.
  const built = spawnSync(
    process.execPath,
    ['--no-warnings', '--snapshot-blob', blob, '--build-snapshot', bundle],
    {
      cwd: staging,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 2, 'inherit'],
    },
  );
  if (built.status !== 0 || !fs.existsSync(blob)) {
    throw new Error(
      `Node could not build the command line's startup snapshot (exit ${built.status ?? built.signal}).`,
    );
  }
  return result.metafile;
}

/** Writes a file whole or not at all: a command starting meanwhile sees the old file or the new one. */
function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/** The package's version, written into both programs (`shelter-desk --version`; see electron/cli/version.ts). */
function versionDefine() {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return { __SHELTER_DESK_VERSION__: JSON.stringify(String(version)) };
}

/** The ES modules the launcher runs, then the startup snapshot, into `staging`. */
async function buildBoth(staging) {
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
    define: versionDefine(),
    metafile: true,
    plugins: [englishOnlyZod],
    logLevel: 'warning',
    banner: {
      // Bundled CommonJS packages (undici, qrcode) call require(); an ES module has none of its own.
      js: "import { createRequire as bannerCreateRequire } from 'node:module'; const require = bannerCreateRequire(import.meta.url);",
    },
  });
  return { result, snapshotMetafile: await buildSnapshot(staging) };
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
 * Then the startup snapshot of both (buildSnapshot). Chunk names carry a hash and old ones are kept for a minute,
 * so a command started from the previous build can still load its chunks; entries, the snapshot and the manifest are
 * replaced whole, the manifest last.
 */
export async function buildCli() {
  const staging = path.join(CLI_OUT, `.staging-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  let result;
  let snapshotMetafile;
  try {
    ({ result, snapshotMetafile } = await buildBoth(staging));
  } catch (error) {
    // Nothing of a failed build is installed, and nothing of it is left behind.
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }

  fs.mkdirSync(path.join(CLI_OUT, 'chunks'), { recursive: true });
  const chunks = fs.readdirSync(path.join(staging, 'chunks'));
  for (const chunk of chunks) {
    const target = path.join(CLI_OUT, 'chunks', chunk);
    if (!fs.existsSync(target)) fs.renameSync(path.join(staging, 'chunks', chunk), target);
  }
  for (const name of Object.keys(ENTRIES)) {
    writeAtomically(path.join(CLI_OUT, `${name}.js`), fs.readFileSync(path.join(staging, `${name}.js`)));
  }
  for (const file of ['cli.cjs', 'cli.blob'])
    fs.renameSync(path.join(staging, file), path.join(CLI_OUT, file));
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
  const sources = Object.keys({ ...result.metafile.inputs, ...snapshotMetafile.inputs }).filter(
    (input) => !input.includes('node_modules/') && !input.startsWith('..') && !input.includes(':'),
  );
  const files = {};
  for (const file of [...new Set([...sources, ...configInputs()])].sort()) files[file] = recordFile(file);
  writeAtomically(MANIFEST_FILE, `${JSON.stringify({ node: process.version, files }, null, 1)}\n`);
  return { files: Object.keys(files).length };
}
