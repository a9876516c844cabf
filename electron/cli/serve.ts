import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { formatFingerprint } from '../../shared/desk-api';
import {
  type FolderHold,
  holdServerFolder,
  shelterCertificate,
  shelterFolderOf,
  startApiServer,
} from '../server';
import { defaultDataDir, describeParseArgsError, optionsKeptByNpm, serveInvokedAs, typedPath } from './args';
import { cliVersion } from './version';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = (
  as = serveInvokedAs(),
) => `Usage: ${as} [--host HOST] [--port N] [--data-dir DIR] [--demo] [--demo-pets N] [--tls]
${' '.repeat(`Usage: ${as} `.length)}[--public-url URL]

  --host HOST      interface to bind (default 127.0.0.1; anything else exposes the API on the network)
  --port N         TCP port, 0 picks a free one (default 8787)
  --data-dir DIR   the shelter's folder (server.sqlite), or a desk's data folder: its standalone/ shelter is served
                   (default: ${defaultServerDataDir()})
  --demo           load the demo shelter when the database is empty
  --demo-pets N    number of demo pets (default about 120; implies --demo)
  --tls            serve HTTPS only, as a desk's LAN sharing does, with the shelter's own certificate (made on
                   first use in DIR/lan-tls.json, readable only by you); prints its SHA-256 fingerprint
  --public-url URL the shelter's public address for photos, the origin listings link stored photos under
                   (e.g. https://photos.example-shelter.org, no path); kept in the database, and pets naming
                   stored photos elsewhere are updated to it
  --version        print the version and exit

Environment: SHELTER_DESK_WRITE_KEY, SHELTER_DESK_READ_KEY provision keys;
SHELTER_DESK_RATE_LIMIT=N replaces every hourly limit with N;
SHELTER_DESK_PUBLIC_URL=URL is --public-url (the flag wins).`;

/**
 * Default data folder: beside the desktop app's own data (Electron's userData for "Shelter Desk"),
 * so the desktop app in standalone mode and `npm run serve` share one server database.
 */
function defaultServerDataDir(): string {
  return path.join(defaultDataDir(), 'server');
}

const wholeNumber = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be a whole number` })
    .transform(Number)
    .pipe(z.number().max(max, { error: `${name} must be at most ${max}` }));

const flagsSchema = z.object({
  host: z
    .string()
    .trim()
    .min(1, { error: '--host must not be empty' })
    .refine((host) => !/^[a-z][a-z+.-]*:\/\//i.test(host), {
      error:
        '--host takes the address of a network interface, not a web address (for example --host 0.0.0.0)',
    })
    .refine((host) => !/^[^:[\]]+:\d*$/.test(host), {
      error: (issue) => {
        const [address, port] = String(issue.input).split(':');
        return `--host takes the address alone: give the port with --port (--host ${address} --port ${port || 'N'})`;
      },
    })
    .default('127.0.0.1'),
  port: wholeNumber('--port', 65535).default(8787),
  'data-dir': z.string().trim().min(1, { error: '--data-dir must not be empty' }).optional(),
  demo: z.boolean().default(false),
  'demo-pets': wholeNumber('--demo-pets', 1_000_000).optional(),
  tls: z.boolean().default(false),
  'public-url': z.string().optional(),
  help: z.boolean().default(false),
  version: z.boolean().default(false),
});

const envSchema = z.object({
  SHELTER_DESK_WRITE_KEY: z
    .string()
    .min(16, { error: 'SHELTER_DESK_WRITE_KEY must be at least 16 characters' })
    .optional(),
  SHELTER_DESK_READ_KEY: z
    .string()
    .min(16, { error: 'SHELTER_DESK_READ_KEY must be at least 16 characters' })
    .optional(),
  SHELTER_DESK_RATE_LIMIT: wholeNumber('SHELTER_DESK_RATE_LIMIT', 1_000_000_000)
    .pipe(z.number().min(1, { error: 'SHELTER_DESK_RATE_LIMIT must be at least 1' }))
    .optional(),
});

const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  demo: { type: 'boolean' },
  'demo-pets': { type: 'string' },
  tls: { type: 'boolean' },
  'public-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function fail(message: string): never {
  console.error(`serve: ${message}\n\n${usage()}`);
  process.exit(2);
}

/** `npm run serve -- …`: the shelter's API server on its own, until SIGTERM or SIGINT. */
export async function runServe(): Promise<void> {
  const keptByNpm = optionsKeptByNpm(SERVE_OPTIONS);
  if (keptByNpm) fail(keptByNpm);
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      // -V asks for the version as -v does, as it does of the other commands.
      args: process.argv.slice(2).map((arg) => (arg === '-V' ? '-v' : arg)),
      strict: true,
      allowPositionals: false,
      options: SERVE_OPTIONS,
    }));
  } catch (error) {
    fail(describeParseArgsError(error, SERVE_OPTIONS));
  }
  const flags = flagsSchema.safeParse(values);
  if (!flags.success) fail(flags.error.issues.map((issue) => issue.message).join('; '));
  if (flags.data.help) {
    console.log(usage());
    return;
  }
  if (flags.data.version) {
    console.log(`Shelter Desk ${cliVersion()}`);
    return;
  }
  const env = envSchema.safeParse({
    SHELTER_DESK_WRITE_KEY: process.env.SHELTER_DESK_WRITE_KEY || undefined,
    SHELTER_DESK_READ_KEY: process.env.SHELTER_DESK_READ_KEY || undefined,
    SHELTER_DESK_RATE_LIMIT: process.env.SHELTER_DESK_RATE_LIMIT || undefined,
  });
  if (!env.success) fail(env.error.issues.map((issue) => issue.message).join('; '));

  const { host, port } = flags.data;
  // A desk's data folder serves the shelter that desk runs (its `standalone` folder), not a second, empty one.
  const dataDir = shelterFolderOf(typedPath(flags.data['data-dir'] ?? defaultServerDataDir()));
  const demoPets = flags.data['demo-pets'];
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  if (!loopback) {
    console.warn(
      `Warning: binding ${host} makes the API reachable from other machines on the network. Share keys only with desks you trust.`,
    );
  }
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let hold: FolderHold | undefined;
  try {
    // Held while serving, so `npm run cli -- restore` cannot swap the database under this server.
    hold = holdServerFolder(dataDir);
    const tls = flags.data.tls ? await shelterCertificate(dataDir) : undefined;
    if (tls) {
      console.log(`Certificate fingerprint (SHA-256): ${formatFingerprint(tls.fingerprint)}`);
      console.log(`Pin for desks: ${tls.fingerprint}`);
    }
    server = await startApiServer({
      tls,
      dataDir,
      host,
      port,
      demo: flags.data.demo || demoPets !== undefined,
      demoPets,
      writeKey: env.data.SHELTER_DESK_WRITE_KEY,
      readKey: env.data.SHELTER_DESK_READ_KEY,
      rateLimitPerHour: env.data.SHELTER_DESK_RATE_LIMIT,
      photoPublicUrl: flags.data['public-url'] ?? (process.env.SHELTER_DESK_PUBLIC_URL || undefined),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`serve: could not start: ${message}`);
    hold?.release();
    process.exit(1);
  }
  console.log(`Data folder: ${dataDir}`);
  if (server.generatedKeys) {
    console.log('No API key was configured, so these were created (shown only once; store them now):');
    console.log(`  write key: ${server.generatedKeys.write}`);
    console.log(`  read key:  ${server.generatedKeys.read}`);
  }
  if (server.photoPublicOrigin) {
    const { origin, petsUpdated } = server.photoPublicOrigin;
    console.log(
      `Public address for photos: ${origin} (${petsUpdated} ${petsUpdated === 1 ? 'pet' : 'pets'} updated to name it)`,
    );
  }
  // Last: scripts (and tests) wait for this line, so everything above is printed by then.
  console.log(`Shelter Desk API listening on ${server.apiUrl}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}: finishing open requests and closing the database.`);
    server.close().then(
      () => {
        hold?.release();
        process.exit(0);
      },
      (error: unknown) => {
        console.error(
          `serve: error while closing: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
