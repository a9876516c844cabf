import { z } from 'zod';
import {
  DeskCallError,
  type DeskOutput,
  type DeskStatus,
  formatFingerprint,
  parseConnectionCode,
} from '../../../shared/desk-api';
import { countOf } from '../../../shared/wording/age';
import type { DeskCore } from '../../desk/api';
import { folderHolder } from '../../server/staff/backup';
import { shelterFolderOf } from '../../server/staff/open-staff';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { withDeskCore } from './cli-context';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage =
  () => `Usage: npm run cli -- sync [--remote URL --key KEY | --code CODE | --standalone] [--data-dir DIR] [--once] [--full]

  --remote URL     the server's address (paths start with /api); remembered in the data folder
  --key KEY        its API key; kept in <data-dir>/secrets.json, readable only by you
  --pin FINGERPRINT  with --remote https://…: accept only the certificate with this SHA-256 (the "Pin for desks"
                   line of \`npm run serve -- --tls\`); remembered
  --code CODE      a shelter's pairing code (from its Keys and sharing screen, or \`share code\`): pairs
                   this data folder with the shelter over TLS pinned to the code's certificate, once (the
                   code works once, for 15 minutes); the typed form in quotes works too
                   (--code "192.168.1.20:8787 K7QM-4TXP"); an older code (shelterdesk:ADDRESS#KEY) is the
                   same as --remote ADDRESS --key KEY
  --standalone     sync with this desk's own embedded server (<data-dir>/standalone/)
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})
  --once           pull everything once, print a one-line summary, exit 0 when the mirror is current
  --full           run the full check instead: read every list in full and ask about every record off the lists
  --json           print the --once summary as one JSON object instead of a sentence
  --request-deadline SECONDS  longest wait for one whole answer of the server, body included (default 60)
  --max-response-mb MB        largest answer accepted from the server (default 32)

Without --once it keeps syncing every 60 s until Ctrl-C, printing status changes to stderr.`;

const flagsSchema = z.object({
  remote: z
    .string()
    .trim()
    .min(1, { error: 'must be an address such as https://shelter.example.org' })
    .optional(),
  key: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
  pin: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'must be the 43-character pin that serve --tls prints' })
    .optional(),
  code: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseConnectionCode(text);
      if (!parsed) {
        ctx.addIssue({
          code: 'custom',
          message:
            'is not a pairing code: copy the whole code (shelterdesk:…#…) from the shelter desk, or type its address and eight-letter code in quotes ("192.168.1.20:8787 K7QM-4TXP")',
        });
        return z.NEVER;
      }
      return { text: text.trim(), code: parsed };
    })
    .optional(),
  standalone: z.boolean().default(false),
  'data-dir': folderFlagSchema.optional(),
  once: z.boolean().default(false),
  full: z.boolean().default(false),
  json: z.boolean().default(false),
  'request-deadline': z.coerce
    .number({ error: 'must be a number of seconds' })
    .positive({ error: 'must be more than 0 seconds' })
    .max(3600, { error: 'must be at most 3600 seconds' })
    .optional(),
  'max-response-mb': z.coerce
    .number({ error: 'must be a number of megabytes' })
    .positive({ error: 'must be more than 0' })
    .max(1024, { error: 'must be at most 1024' })
    .optional(),
});

/** The fix to print after a failure, by what the desk's status says went wrong. */
function fixFor(status: DeskStatus): string {
  if (status.state === 'offline') return 'Check --remote and that the server is running and reachable.';
  if (status.state === 'needs-auth') return 'Pass a valid key with --key KEY (a read key is enough to sync).';
  if (status.error?.code === 'rate_limited') return 'Wait for the hourly window to reset, then run it again.';
  if (status.error?.code === 'response_too_large')
    return 'Report it to whoever runs the server; raise --max-response-mb only if such answers are expected.';
  if (status.error?.code === 'response_too_slow')
    return 'Check the network or the server; raise --request-deadline only if the server is known to be this slow.';
  return 'Run it again; if it keeps failing, report the message and request id.';
}

function summaryLine(
  label: string,
  summary: { requests: number; notModified: number; written: number; durationMs: number },
  counts: DeskOutput<'mirror.counts'>,
): string {
  const { listed, unlisted, removed } = counts.pets;
  const gone = removed > 0 ? `, ${removed} deleted on the server` : '';
  return (
    `Synced ${label}: ${countOf(listed, 'pet')} public, ${unlisted} not public${gone}, ` +
    `${countOf(counts.adopters, 'adopter')}, ${countOf(counts.fosters, 'foster')}; ${countOf(summary.requests, 'request')} ` +
    `(${summary.notModified} not modified), ${countOf(summary.written, 'record')} written in ${(summary.durationMs / 1000).toFixed(1)} s.`
  );
}

/** Points the data folder at --remote or --standalone through the core, or checks one is remembered. */
async function connect(
  core: DeskCore,
  flags: {
    remote?: string | undefined;
    key?: string | undefined;
    pin?: string | undefined;
    standalone: boolean;
  },
  dataDir: string,
  hint: string,
): Promise<void> {
  try {
    if (flags.remote) {
      await core.registry.invoke('sync.connection.set', {
        mode: 'remote',
        remote: flags.remote,
        ...(flags.key && { apiKey: flags.key }),
        ...(flags.pin && { pin: flags.pin }),
      });
      return;
    }
    if (flags.standalone) {
      await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
      return;
    }
  } catch (error) {
    if (error instanceof DeskCallError) throw new CliUsageError(error.message, hint);
    throw error;
  }
  if ((await core.registry.invoke('sync.connection.get', undefined)).mode === 'none') {
    throw new CliUsageError(
      `${dataDir} has no server to sync with yet.`,
      'Pass --remote URL --key KEY once (or --standalone); the data folder remembers them.',
    );
  }
}

/**
 * Pairs the data folder with a shelter by its pairing code, as the connect screen does; a refusal (another
 * certificate, a code used or expired, the shelter unreachable) exits 1 with what to do.
 */
async function pair(core: DeskCore, code: string, io: CliIo): Promise<void> {
  try {
    const summary = await core.registry.invoke('sync.connection.pair', { code });
    io.stderr(`Paired with ${summary.remote}; this desk has a key of its own now.\n`);
  } catch (error) {
    if (error instanceof DeskCallError) throw new Error(error.message);
    throw error;
  }
}

/** One sync through the core, then the summary line (exit 0) or what went wrong and the fix (exit 1). */
async function syncOnce(core: DeskCore, flags: { full: boolean; json: boolean }, label: string, io: CliIo) {
  const before = (await core.registry.invoke('outbox.list', {})).counts;
  const summary = await core.registry.invoke('sync.now', { full: flags.full });
  const after = (await core.registry.invoke('outbox.list', {})).counts;
  const refused = Math.max(0, after.needsAttention - before.needsAttention);
  const sent = Math.max(0, before.pending - after.pending - refused);
  if (sent + refused > 0) {
    io.stderr(
      `Sent ${sent} queued change(s)${refused > 0 ? `; the server refused ${refused} (see: npm run cli -- outbox list)` : ''}.\n`,
    );
  }
  const status = core.status.get();
  const remote = status.remote ?? label;
  if (summary?.complete) {
    const counts = await core.registry.invoke('mirror.counts', undefined);
    io.stdout(
      flags.json
        ? `${JSON.stringify({ remote, ...counts, requests: summary.requests, notModified: summary.notModified, written: summary.written })}\n`
        : `${summaryLine(remote, summary, counts)}\n`,
    );
    return 0;
  }
  if (status.error?.code === 'folder_in_use') {
    io.stderr(`${folderInUseMessage(label)}\n`);
    return 1;
  }
  // Offline is a state, not an error, in the desk's status (the app keeps retrying); a one-off run just says so.
  const message =
    status.state === 'offline'
      ? `Cannot reach the server at ${remote}; nothing was synced.`
      : (status.error?.message ??
        summary?.problems.join(' ') ??
        status.message ??
        'The sync did not complete.');
  const requestId = status.error?.requestId;
  io.stderr(`${message}${requestId ? ` (request id ${requestId})` : ''}\n${fixFor(status)}\n`);
  return 1;
}

/** A one-off run beside the desk that runs the shelter in `dataDir`: it does not try again, so it says what to do. */
function folderInUseMessage(dataDir: string): string {
  const folder = shelterFolderOf(dataDir);
  const holder = folderHolder(folder);
  return (
    `The shelter in ${folder} is in use by ${holder ? `process ${holder} (a running Shelter Desk or npm run serve)` : 'a running Shelter Desk or npm run serve'}, so this command cannot sync it.\n` +
    'Stop it (Ctrl+C where it runs, or close the desk window) and run this again. While that desk runs, it keeps these records in sync itself.'
  );
}

/**
 * Says so when this run moved an older connection (http:// and the shelter's shared key) to the shelter's TLS by
 * itself, with the fingerprint to compare aloud. The desk app says it too, until someone there has read it.
 */
async function tellMovedToTls(core: DeskCore, toldBefore: boolean, io: CliIo): Promise<void> {
  const after = await core.registry.invoke('sync.connection.get', undefined);
  if (toldBefore || !after.movedToTls || !after.fingerprint) return;
  io.stderr(
    `The connection to the shelter is now encrypted: the shelter shares over HTTPS only, so this desk moved from ${after.movedToTls.from} to ${after.remote} by itself, with the same key, and accepts only the certificate it found now.\n` +
      `Compare its fingerprint aloud with the shelter desk (Keys and sharing): ${formatFingerprint(after.fingerprint)}\n`,
  );
}

/** Keeps syncing on the core's schedule until Ctrl-C, printing status changes to stderr. */
async function syncForever(core: DeskCore, io: CliIo): Promise<number> {
  await core.start();
  let last = '';
  const timer = setInterval(() => {
    const s = core.status.get();
    const stage = s.progress?.stage === 'finishing' ? ' preparing search' : '';
    const line = `${s.state}${s.progress ? ` ${s.progress.phase}${stage} ${s.progress.recordsDone}/${s.progress.recordsTotal ?? '?'}` : ''}${s.error ? `: ${s.error.message}` : s.message ? `: ${s.message}` : ''}`;
    if (line !== last) io.stderr(`${new Date().toISOString()} ${line}\n`);
    last = line;
  }, 250);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  clearInterval(timer);
  return 0;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- sync --help';
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const flags = parseFlags(
    argv,
    {
      remote: { type: 'string' },
      key: { type: 'string' },
      pin: { type: 'string' },
      code: { type: 'string' },
      standalone: { type: 'boolean' },
      'data-dir': { type: 'string' },
      once: { type: 'boolean' },
      full: { type: 'boolean' },
      json: { type: 'boolean' },
      'request-deadline': { type: 'string' },
      'max-response-mb': { type: 'string' },
    },
    flagsSchema,
    hint,
  );
  if (flags.code && (flags.remote || flags.key || flags.pin || flags.standalone)) {
    throw new CliUsageError('--code already holds the address and the key: use it alone.', hint);
  }
  if (flags.remote && flags.standalone) throw new CliUsageError('Use either --remote or --standalone.', hint);
  if (flags.key && !flags.remote) throw new CliUsageError('--key goes with --remote URL.', hint);
  if (flags.pin && !flags.remote?.startsWith('https://')) {
    throw new CliUsageError('--pin goes with --remote https://…', hint);
  }
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  // The same core the app assembles (mirror, outbox, sync service, connection, standalone server), through its
  // handlers: every run first sends the outbox's queued local writes.
  const syncClient = {
    ...(flags['request-deadline'] && { deadlineMs: flags['request-deadline'] * 1000 }),
    ...(flags['max-response-mb'] && { maxResponseBytes: flags['max-response-mb'] * 1024 * 1024 }),
  };
  return withDeskCore(dataDir, { syncClient }, async (core) => {
    const code = flags.code;
    if (code && code.code.kind !== 'key') await pair(core, code.text, io);
    else {
      const target =
        code?.code.kind === 'key' ? { ...flags, remote: code.code.remote, key: code.code.apiKey } : flags;
      await connect(core, target, dataDir, hint);
    }
    if (!flags.once) return syncForever(core, io);
    const before = await core.registry.invoke('sync.connection.get', undefined);
    const exit = await syncOnce(core, flags, dataDir, io);
    await tellMovedToTls(core, before.movedToTls !== null, io);
    return exit;
  });
}

export const syncCommand: CliCommand = {
  run,
};
