import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { recordFile, staleReason } from '../../scripts/lib/cli-manifest.mjs';
import { FROM_SNAPSHOT, ROOT, run } from '../run-command';
import { tempDir } from '../temp-mirror';

const READ_KEY = 'sd_r_first_use_test_key_0123456789';

/** A checkout of its own in a temp folder: an empty out/cli, and src/a.ts as a file a build was made from. */
function fakeCheckout(prefix: string) {
  const folder = tempDir(prefix);
  const root = folder.dir;
  const out = path.join(root, 'out', 'cli');
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  return { folder, root, out };
}

/** Copies `script` and the build check it runs into the fake checkout at `root`. */
function copyScripts(root: string, script: string) {
  fs.mkdirSync(path.join(root, 'scripts', 'lib'), { recursive: true });
  for (const file of [script, 'scripts/lib/cli-manifest.mjs']) {
    fs.copyFileSync(path.join(ROOT, file), path.join(root, file));
  }
}

/**
 * A stand-in build in the fake checkout at `root` (it says it ran and writes the manifest of the files as they are
 * now), and a manifest that makes out/cli current.
 */
function standInBuild(root: string) {
  fs.writeFileSync(
    path.join(root, 'scripts/lib/cli-build.mjs'),
    [
      "import fs from 'node:fs';",
      "import { MANIFEST_FILE, recordFile } from './cli-manifest.mjs';",
      'export async function buildCli() {',
      "  console.log('built');",
      "  const files = { 'src/a.ts': recordFile('src/a.ts') };",
      '  fs.writeFileSync(MANIFEST_FILE, JSON.stringify({ node: process.version, files }));',
      '}',
    ].join('\n'),
  );
  const files = { 'src/a.ts': recordFile('src/a.ts', root) };
  fs.writeFileSync(
    path.join(root, 'out/cli/manifest.json'),
    JSON.stringify({ node: process.version, files }),
  );
}

describe('the command line build in out/cli', () => {
  it('is stale without a build or an entry, or when a file it was built from changed or went; not after a touch', () => {
    const { folder, root, out } = fakeCheckout('sd-cli-manifest-');
    try {
      fs.writeFileSync(path.join(root, 'src/b.ts'), 'export const b = 2;\n');
      expect(staleReason(['desk-cli.js'], root)).toBe('no build in out/cli yet');
      const files = { 'src/a.ts': recordFile('src/a.ts', root), 'src/b.ts': recordFile('src/b.ts', root) };
      fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ node: 'v18.0.0', files }));
      expect(staleReason(['desk-cli.js'], root)).toBe('out/cli/desk-cli.js is missing');
      fs.writeFileSync(path.join(out, 'desk-cli.js'), '');
      expect(staleReason(['desk-cli.js'], root)).toBe(
        `out/cli was built by Node.js v18.0.0, this is ${process.version}`,
      );
      fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ node: process.version, files }));
      expect(staleReason(['desk-cli.js'], root)).toBeUndefined();

      // A checkout or an editor's save that leaves the contents as they were: the hash says current.
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(path.join(root, 'src/a.ts'), later, later);
      expect(staleReason(['desk-cli.js'], root)).toBeUndefined();
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      expect(manifest.files['src/a.ts'].mtimeMs).toBe(fs.statSync(path.join(root, 'src/a.ts')).mtimeMs);
      // The same size, other contents.
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 9;\n');
      expect(staleReason(['desk-cli.js'], root)).toBe('src/a.ts changed');
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
      expect(staleReason(['desk-cli.js'], root)).toBeUndefined();
      fs.rmSync(path.join(root, 'src/b.ts'));
      expect(staleReason(['desk-cli.js'], root)).toBe('src/b.ts is gone');
    } finally {
      folder.remove();
    }
  });

  it('starts from the snapshot when current, and hands a call to the launcher (which rebuilds) when stale', async () => {
    const { folder, root, out } = fakeCheckout('sd-cli-snapshot-');
    try {
      fs.mkdirSync(path.join(root, 'scripts'));
      fs.copyFileSync(path.join(ROOT, 'out', 'cli', 'cli.blob'), path.join(out, 'cli.blob'));
      for (const output of ['desk-cli.js', 'serve.js', 'start.js'])
        fs.writeFileSync(path.join(out, output), '');
      const files = { 'src/a.ts': recordFile('src/a.ts', root) };
      fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ node: process.version, files }));
      // A stand-in launcher that says what it was asked; asked to `wait`, it runs until SIGTERM.
      fs.writeFileSync(
        path.join(root, 'scripts', 'shelter-desk.mjs'),
        [
          // Listening before it says anything: the test sends the signal as soon as it reads the first line.
          "process.on('SIGTERM', () => { console.log('stopped'); process.exit(5); });",
          'console.log(JSON.stringify(process.argv.slice(2)));',
          "if (process.argv[2] !== 'wait') process.exit(7);",
          'setTimeout(() => process.exit(9), 20_000);',
        ].join('\n'),
      );
      const blobArgs = ['--snapshot-blob', path.join(out, 'cli.blob'), '--'];
      const fromSnapshot = (args: string[], env?: NodeJS.ProcessEnv) =>
        run(process.execPath, [...blobArgs, ...args], env && { env });

      const current = await fromSnapshot(['--help']);
      expect(current.code).toBe(0);
      expect(current.stdout).toMatch(/^Usage: npm run cli -- <command>/);
      // The help names the data folder of whoever runs it, not of the machine the snapshot was built on.
      const help = await fromSnapshot(['keys', '--help'], { XDG_CONFIG_HOME: path.join(root, 'config') });
      expect(help.stdout).toContain(`(default: ${path.join(root, 'config', 'Shelter Desk')})`);

      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
      const stale = await fromSnapshot(['keys', 'list', '--data-dir', 'D']);
      expect(stale.stdout.trim()).toBe('["keys","list","--data-dir","D"]');
      expect(stale.code).toBe(7);
      expect((await fromSnapshot(['serve', '--help'])).stdout.trim()).toBe('["serve","--help"]');

      // A SIGTERM to the process npm started (npm passes it on; so does a service manager) reaches the launcher.
      const waiting = spawn(process.execPath, [...blobArgs, 'wait'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let said = '';
      waiting.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('["wait"]')) waiting.kill('SIGTERM');
      });
      const code = await new Promise<number | null>((resolve) => waiting.on('exit', resolve));
      expect(said).toContain('stopped');
      expect(code).toBe(5);
    } finally {
      folder.remove();
    }
  });

  it('npm start runs the desk from out/cli/start.js when current, and builds it first when stale', async () => {
    const { folder, root, out } = fakeCheckout('sd-start-');
    try {
      copyScripts(root, 'scripts/start.mjs');
      for (const output of ['desk-cli.js', 'serve.js', 'cli.blob'])
        fs.writeFileSync(path.join(out, output), '');
      // The built desk says it ran, with its arguments.
      fs.writeFileSync(
        path.join(out, 'start.js'),
        "console.log('start.js', JSON.stringify(process.argv.slice(2)));\n",
      );
      standInBuild(root);
      const start = () => run(process.execPath, [path.join(root, 'scripts/start.mjs'), '--no-open']);

      const current = await start();
      expect(current.stdout).toBe('start.js ["--no-open"]\n');
      expect(current.stderr).toBe('');

      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
      const stale = await start();
      expect(stale.stderr).toContain("Building the desk's launcher first (src/a.ts changed)");
      expect(stale.stdout).toBe('built\nstart.js ["--no-open"]\n');
      expect((await start()).stdout).toBe('start.js ["--no-open"]\n');
    } finally {
      folder.remove();
    }
  });

  it('the launcher rebuilds a stale build before it runs a command, and says what to do when it cannot', async () => {
    const { folder, root, out } = fakeCheckout('sd-launcher-');
    try {
      copyScripts(root, 'scripts/shelter-desk.mjs');
      for (const output of ['start.js', 'cli.blob']) fs.writeFileSync(path.join(out, output), '');
      for (const entry of ['desk-cli', 'serve']) {
        fs.writeFileSync(
          path.join(out, `${entry}.js`),
          `console.log('${entry}.js', JSON.stringify(process.argv.slice(2)));\n`,
        );
      }
      standInBuild(root);
      const launch = (...args: string[]) =>
        run(process.execPath, [path.join(root, 'scripts/shelter-desk.mjs'), ...args]);

      expect((await launch('keys', 'list')).stdout).toBe('desk-cli.js ["keys","list"]\n');
      expect((await launch('serve', '--demo')).stdout).toBe('serve.js ["--demo"]\n');

      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
      const stale = await launch('outbox', 'list');
      // Quiet about the build on stderr, which scripts read for errors.
      expect(stale.stderr).toBe('');
      expect(stale.stdout).toBe('built\ndesk-cli.js ["outbox","list"]\n');

      // A checkout installed without its development dependencies cannot build.
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 3;\n');
      fs.writeFileSync(
        path.join(root, 'scripts/lib/cli-build.mjs'),
        "import 'esbuild-not-installed';\nexport async function buildCli() {}\n",
      );
      const unbuildable = await launch('keys', 'list');
      expect(unbuildable.code).toBe(1);
      expect(unbuildable.stdout).toBe('');
      expect(unbuildable.stderr).toContain(
        'The command line needs building (src/a.ts changed), but esbuild is not installed.',
      );
      expect(unbuildable.stderr).toContain('Install the development dependencies (npm install)');

      // A build that fails stops the call: nothing stale runs.
      fs.writeFileSync(
        path.join(root, 'scripts/lib/cli-build.mjs'),
        "export async function buildCli() { throw new Error('syntax'); }\n",
      );
      const failed = await launch('keys', 'list');
      expect(failed.code).toBe(1);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toContain('The command line could not be built (src/a.ts changed).');
    } finally {
      folder.remove();
    }
  });

  it('loads what the snapshot leaves out when first used: the demo photos, the shelter certificate', async () => {
    const folder = tempDir('sd-cli-first-use-');
    const server = spawn(
      process.execPath,
      [...FROM_SNAPSHOT, 'serve', '--demo', '--tls', '--port', '0', '--data-dir', folder.dir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SHELTER_DESK_READ_KEY: READ_KEY },
      },
    );
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`serve did not listen:\n${output}`)), 30_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (https:\/\/127\.0\.0\.1:\d+)\/api/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        server.stdout.on('data', onData);
        server.stderr.on('data', onData);
        server.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
      });
      // The shelter's own certificate (@peculiar/x509, from node_modules): fetched as any desk would, unpinned here.
      const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
      try {
        const pets = await request(`${origin}/api/pets?limit=1`, {
          headers: { 'x-api-key': READ_KEY },
          dispatcher,
        });
        expect(pets.statusCode).toBe(200);
        const [pet] = ((await pets.body.json()) as { pets: Array<{ image_urls: string[] }> }).pets;
        // The demo's pictures (resources/demo/photos.json, read from the checkout) are the pet's photos.
        const photo = await request(pet?.image_urls[0] ?? `${origin}/missing`, { dispatcher });
        expect(photo.statusCode).toBe(200);
        expect(photo.headers['content-type']).toBe('image/jpeg');
        expect((await photo.body.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      } finally {
        await dispatcher.close();
      }
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      folder.remove();
    }
  });

  it('does nothing when -- was left out and npm kept the options, and says to type it', async () => {
    const folder = tempDir('sd-cli-npm-kept-');
    try {
      const keys = await run('npm', [
        'run',
        '--silent',
        'cli',
        'keys',
        'list',
        '--data-dir',
        folder.dir,
        '--json',
      ]);
      expect(keys.code).toBe(2);
      expect(keys.stderr).toContain(
        'npm kept --data-dir and --json for itself, so nothing was done: type -- after "npm run cli", then the rest as before. See: npm run cli -- keys --help\n',
      );
      // Without the check, serve would make a shelter in the default folder and listen on 8787 until killed.
      const serve = await run('npm', ['run', '--silent', 'serve', '--port', '0', '--data-dir', folder.dir], {
        timeoutMs: 30_000,
      });
      expect(serve.code).toBe(2);
      expect(serve.stderr).toContain('serve: npm kept --port and --data-dir for itself, so nothing was done');
      const start = await run('npm', ['start', '--standalone', '--no-open', '--data-dir', folder.dir], {
        timeoutMs: 30_000,
      });
      expect(start.code).toBe(2);
      expect(start.stderr).toContain(
        'npm kept --data-dir, --no-open and --standalone for itself, so nothing was done: type -- after "npm start"',
      );
      expect(fs.readdirSync(folder.dir)).toEqual([]);
    } finally {
      folder.remove();
    }
  });

  it('reads --data-dir=~/… as a folder in the home folder, where the shell left the ~ as typed', async () => {
    const name = `sd-no-such-shelter-${process.pid}`;
    const keys = await run('npm', ['run', '--silent', 'cli', '--', 'keys', 'list', `--data-dir=~/${name}`]);
    expect(keys.code).toBe(1);
    expect(keys.stderr).toContain(`No shelter database in ${path.join(os.homedir(), name)}.`);
    expect(fs.existsSync(path.join(ROOT, '~'))).toBe(false);
  });

  it('runs as typed: npm run cli, npm run serve and npx shelter-desk, from a current build', async () => {
    const help = await run('npm', ['run', '--silent', 'cli', '--', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run cli -- <command>/);
    expect(help.stdout).toContain('keys');
    const serveHelp = await run('npm', ['run', '--silent', 'serve', '--', '--help']);
    expect(serveHelp.code).toBe(0);
    expect(serveHelp.stdout).toMatch(/^Usage: npm run serve -- /);
    const bin = await run('npx', ['--no-install', 'shelter-desk', 'serve', '--help']);
    expect(bin.code).toBe(0);
    // The same help, naming the server as it was started, its continued line still under the first flag.
    expect(bin.stdout).toMatch(
      /^Usage: npx shelter-desk serve \[--host HOST\].*\n {30}\[--public-url URL\]\n/,
    );
    const body = (help: string) => help.split('\n').slice(2).join('\n');
    expect(body(bin.stdout)).toBe(body(serveHelp.stdout));
    const unknown = await run('npx', ['--no-install', 'shelter-desk', 'no-such-command']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "no-such-command"');
    // A typo is answered with the command meant, as typed (through npx here).
    const typo = await run('npx', ['--no-install', 'shelter-desk', 'sycn']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'Unknown command "sycn". Did you mean: npx shelter-desk sync?\nAll commands: npx shelter-desk --help\n',
    );
    // A command's own help, and its hints, name the command line as typed too.
    const keysHelp = await run('npx', ['--no-install', 'shelter-desk', 'keys', '--help']);
    expect(keysHelp.stdout).toMatch(/^Usage: npx shelter-desk keys list\|create\|revoke/);
    expect(keysHelp.stdout).not.toMatch(/npm run (--silent )?cli/);
    const keysTypo = await run('npx', ['--no-install', 'shelter-desk', 'keys', 'lst']);
    expect(keysTypo.stderr).toContain('See: npx shelter-desk keys --help');
    // What ran was built from the files as they are now.
    expect(staleReason(undefined, ROOT)).toBeUndefined();
    expect(fs.existsSync(path.join(ROOT, 'out/cli/fonts/DejaVuSans.ttf'))).toBe(true);
  });

  it('says which version it is, however it was asked and started, from its build rather than npm', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const env = { npm_package_version: '9.9.9-not-this' };
    const asked = [
      await run('node', [...FROM_SNAPSHOT, '--version'], { env }),
      await run('node', [...FROM_SNAPSHOT, '-v'], { env }),
      await run('node', [...FROM_SNAPSHOT, '-V'], { env }),
      await run('node', [...FROM_SNAPSHOT, 'version'], { env }),
      await run('node', [...FROM_SNAPSHOT, 'serve', '--version'], { env }),
      await run('node', [...FROM_SNAPSHOT, 'serve', '-V'], { env }),
      await run('npx', ['--no-install', 'shelter-desk', '--version'], { env }),
      await run('npx', ['--no-install', 'shelter-desk', 'Serve', '-v'], { env }),
      await run('node', [...FROM_SNAPSHOT, 'Version'], { env }),
    ];
    for (const answer of asked)
      expect(answer).toEqual({ code: 0, stdout: `Shelter Desk ${version}\n`, stderr: '' });
  });

  it('makes every schema in the snapshot without zod’s compiled fast path: the setting is imported before them', () => {
    // A zod schema reads the setting when it is made; the snapshot's modules make theirs as they are imported.
    const source = fs.readFileSync(path.join(ROOT, 'scripts/lib/cli-snapshot.mjs'), 'utf8');
    const imported = [...source.matchAll(/^import (?:.+ from )?'([^']+)';$/gm)].map((match) => match[1]);
    const setting = imported.indexOf('./zod-jitless.mjs');
    const firstOfProject = imported.findIndex((specifier) => specifier?.startsWith('../../'));
    expect(setting).toBeGreaterThan(-1);
    expect(setting).toBeLessThan(firstOfProject);
    expect(fs.readFileSync(path.join(ROOT, 'scripts/lib/zod-jitless.mjs'), 'utf8')).toContain(
      'z.config({ jitless: true });',
    );
  });
});
