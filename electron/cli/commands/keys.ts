import { z } from 'zod';
import { findShelterDatabaseDir, openStaffOperations } from '../../server';
import { asChoice, CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run --silent cli -- keys list|create|revoke [options]

The shelter's API keys (standalone shelter or \`npm run serve\` folder). Only hashes are stored: a new key is
printed once, here, and cannot be shown again.

  keys list [--json]                                   every key: id, kind, name, created, last used, revoked
  keys create --read|--write --name NAME [--json]      a new key; --json prints {"id","key","kind","name"}
  keys revoke ID [--json]                              revoke a key at once (requests with it get 401);
                                                       the desk's own key is kept

  --data-dir DIR   the desk's data folder or a server data folder (default: ${defaultDataDir()})

Works while the desk runs: a key created or revoked here counts from the server's next request.`;

const HINT = 'See: npm run cli -- keys --help';

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  read: z.boolean().default(false),
  write: z.boolean().default(false),
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(80).optional(),
  json: z.boolean().default(false),
});

/** The options of `keys` (also what the tests of `optionsKeptByNpm` read as npm passes them on). */
export const keysFlagOptions = {
  'data-dir': { type: 'string' },
  read: { type: 'boolean' },
  write: { type: 'boolean' },
  name: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const [action, ...rest] = argv;
  const verb = z.enum(['list', 'create', 'revoke']).safeParse(asChoice(action));
  if (!verb.success) {
    throw new CliUsageError(
      `Say what to do: list, create or revoke${action ? ` (not "${action}")` : ''}.`,
      HINT,
    );
  }
  let id: string | undefined;
  let flagArgs = rest;
  if (verb.data === 'revoke') {
    id = rest[0];
    if (!id || id.startsWith('--')) throw new CliUsageError('Name the key to revoke: keys revoke ID.', HINT);
    flagArgs = rest.slice(1);
  }
  const flags = parseFlags(flagArgs, keysFlagOptions, flagsSchema, HINT);
  if (verb.data === 'create') {
    if (flags.read === flags.write) throw new CliUsageError('Choose one of --read or --write.', HINT);
    if (!flags.name)
      throw new CliUsageError('Give the key a name with --name NAME (who or what uses it).', HINT);
  }
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const serverDir = findShelterDatabaseDir(dataDir);
  if (!serverDir) {
    io.stderr(
      `No shelter database in ${dataDir}. Run the shelter on this desk first (npm start -- --standalone --data-dir DIR), or pass the folder of \`npm run serve\`.\n`,
    );
    return 1;
  }
  const { staff, close } = await openStaffOperations(serverDir);
  try {
    if (verb.data === 'list') {
      const keys = staff.listApiKeys();
      if (flags.json) {
        io.stdout(
          `${JSON.stringify(
            keys.map((key) => ({
              id: key.id,
              kind: key.access,
              name: key.label,
              prefix: key.keyPrefix,
              created_at: key.createdAt,
              last_used_at: key.lastUsedAt,
              revoked_at: key.revokedAt,
              this_desk: key.deskOwn,
            })),
          )}\n`,
        );
      } else if (keys.length === 0) {
        io.stdout('No keys.\n');
      } else {
        for (const key of keys) {
          const state = key.revokedAt ? `revoked ${day(key.revokedAt)}` : `last used ${day(key.lastUsedAt)}`;
          io.stdout(
            `${key.id}  ${key.access.padEnd(5)}  ${key.label}  (created ${day(key.createdAt)}, ${state})\n`,
          );
        }
      }
      return 0;
    }
    if (verb.data === 'create') {
      const kind = flags.write ? 'write' : 'read';
      const name = flags.name as string;
      const created = staff.createApiKey(kind, name);
      if (flags.json) io.stdout(`${JSON.stringify({ id: created.id, key: created.key, kind, name })}\n`);
      else {
        io.stdout(`${created.key}\n`);
        io.stderr(`Created ${kind} key "${name}" (id ${created.id}). It is shown only now: copy it.\n`);
      }
      return 0;
    }
    const revocation = staff.revokeApiKey(id as string);
    if (revocation === 'desk-own') {
      io.stderr(
        `Key ${id} is the one the desk uses for its own shelter: revoking it would cut the desk off from its records. Revoke the keys of other desks and programs (see: keys list).\n`,
      );
      return 1;
    }
    if (revocation === 'unknown') {
      io.stderr(`No active key with id ${id} (see: keys list).\n`);
      return 1;
    }
    if (flags.json) io.stdout(`${JSON.stringify({ id, revoked: true })}\n`);
    else io.stderr(`Revoked key ${id}.\n`);
    return 0;
  } finally {
    await close();
  }
}

export const keysCommand: CliCommand = {
  run,
};
