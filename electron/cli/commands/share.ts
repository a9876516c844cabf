import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { formatFingerprint, formatPairingCode, formatTypedConnection } from '../../../shared/desk-api';
import { readShelterFile, writeLanEnabled } from '../../desk/api/handlers/shelter-host';
import { lanHost, lanPort, listeningAddress } from '../../desk/api/handlers/shelter-lan';
import { openStaffOperations, serverDatabasePath, shelterCertificate } from '../../server';
import { asChoice, CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run --silent cli -- share on|off|status|code --data-dir DIR [--json]

LAN sharing of a desk that runs its shelter (standalone), running or stopped. Sharing serves the shelter's API
over HTTPS on the PC's LAN address (port 8787; SHELTER_DESK_LAN_HOST / SHELTER_DESK_LAN_PORT override both) with
the shelter's own certificate; a second desk joins with a pairing code.

  share on        turn sharing on (a running desk opens the listener within a second)
  share off       turn it off (a running desk closes the listener and its connections at once)
  share status    whether it is on, where it listens, the certificate's fingerprint
  share code      a new pairing code: works once, for 15 minutes, pasted or typed (its address and eight
                  letters and digits); --json prints {"address","code","typed","fingerprint","expiresAt"}

  --data-dir DIR  the desk's data folder (default: ${defaultDataDir()})
  --json          one JSON object on stdout

A second desk pairs with: npm run cli -- sync --code CODE --data-dir ITS-DIR (or pastes the code on its
connect screen, then the fingerprint is compared aloud between the two desks), or types the typed form there
(the two desks then prove the code to each other).`;

const HINT = 'See: npm run cli -- share --help';

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  json: z.boolean().default(false),
});

/** How long `share on|off` waits for a running desk to follow. */
const FOLLOW_WAIT_MS = 4000;

async function waitForListener(dataDir: string, open: boolean): Promise<string | undefined> {
  const until = Date.now() + FOLLOW_WAIT_MS;
  for (;;) {
    const address = listeningAddress(dataDir);
    if ((address !== undefined) === open || Date.now() > until) return address;
    await sleep(100);
  }
}

/** The address the listener has (a running desk) or will have (a stopped one), or undefined without a network. */
function sharingAddress(dataDir: string): string | undefined {
  const listening = listeningAddress(dataDir);
  if (listening) return listening;
  const host = lanHost(process.env);
  if (!host) return undefined;
  return `https://${host.includes(':') ? `[${host}]` : host}:${lanPort(process.env, readShelterFile(dataDir).lan.port)}/api`;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const [action, ...rest] = argv;
  const verb = z.enum(['on', 'off', 'status', 'code']).safeParse(asChoice(action));
  if (!verb.success) {
    throw new CliUsageError(
      `Say what to do: on, off, status or code${action ? ` (not "${action}")` : ''}.`,
      HINT,
    );
  }
  const flags = parseFlags(
    rest,
    { 'data-dir': { type: 'string' }, json: { type: 'boolean' } },
    flagsSchema,
    HINT,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const serverDir = path.join(dataDir, 'standalone');
  if (!fs.existsSync(serverDatabasePath(serverDir))) {
    io.stderr(
      `${dataDir} does not run a shelter. Start it as one first: npm start -- --standalone --data-dir ${dataDir}\n`,
    );
    return 1;
  }
  const print = (json: object, text: string) =>
    io.stdout(flags.json ? `${JSON.stringify(json)}\n` : `${text}\n`);

  if (verb.data === 'on' || verb.data === 'off') {
    const enabled = verb.data === 'on';
    writeLanEnabled(dataDir, enabled);
    const address = await waitForListener(dataDir, enabled);
    const running = address !== undefined;
    print(
      { enabled, listening: running, address: address ?? null },
      enabled
        ? running
          ? `Sharing is on: ${address}`
          : 'Sharing is on; it starts when the desk runs (or the desk could not open it: see its Keys and sharing screen).'
        : 'Sharing is off.',
    );
    return 0;
  }

  const enabled = readShelterFile(dataDir).lan.enabled;
  const certificate = await shelterCertificate(serverDir);
  if (verb.data === 'status') {
    const listening = listeningAddress(dataDir);
    print(
      {
        enabled,
        listening: listening !== undefined,
        address: listening ?? null,
        fingerprint: certificate.fingerprint,
      },
      `Sharing is ${enabled ? 'on' : 'off'}${listening ? `, listening at ${listening}` : enabled ? ' (the desk is not running)' : ''}.\nCertificate fingerprint: ${formatFingerprint(certificate.fingerprint)}`,
    );
    return 0;
  }

  if (!enabled) {
    io.stderr(
      `Sharing is off, so no desk could use a code. Turn it on first: npm run cli -- share on --data-dir ${dataDir}\n`,
    );
    return 1;
  }
  if (!listeningAddress(dataDir) && lanPort(process.env, readShelterFile(dataDir).lan.port) === 0) {
    // Port 0: the system picks a free port when the listener opens, so no address can go in a code before that.
    io.stderr(
      `The sharing port is chosen when the desk starts (SHELTER_DESK_LAN_PORT=0), so a code made now could not say where to connect. Start the desk (npm start -- --standalone --data-dir ${dataDir}), then run share code again: it prints the address with its port.\n`,
    );
    return 1;
  }
  const address = sharingAddress(dataDir);
  if (!address) {
    io.stderr(
      'This PC has no network address: connect it to the shelter’s network (or set SHELTER_DESK_LAN_HOST).\n',
    );
    return 1;
  }
  const { staff, close } = await openStaffOperations(serverDir);
  try {
    const pairing = staff.createPairingCode(certificate.fingerprint);
    const code = formatPairingCode(address, certificate.fingerprint, pairing.secret);
    const typed = formatTypedConnection(address, pairing.typedCode);
    print({ address, code, typed, fingerprint: certificate.fingerprint, expiresAt: pairing.expiresAt }, code);
    if (!flags.json) {
      io.stderr(
        `Or type on the other desk: ${typed}\nWorks once, until ${pairing.expiresAt}. Certificate fingerprint: ${formatFingerprint(certificate.fingerprint)}\n`,
      );
    }
    return 0;
  } finally {
    await close();
  }
}

export const shareCommand: CliCommand = {
  run,
};
