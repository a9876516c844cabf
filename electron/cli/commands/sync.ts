import fs from 'node:fs';
import { z } from 'zod';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { ApiError } from '../../desk/client';
import { countRecords } from '../../desk/mirror';
import { openDeskMirror, pushOutbox } from '../../desk/outbox';
import { type StatusSink, type SyncRunSummary, SyncService } from '../../desk/sync';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { connectionsFor } from './cli-context';
import type { CliCommand, CliIo } from './command';

const USAGE = `Usage: npm run cli -- sync [--remote URL --key KEY | --standalone] [--data-dir DIR] [--once] [--full]

  --remote URL     the server's address (paths start with /api); remembered in the data folder
  --key KEY        its API key; kept in <data-dir>/secrets.json, readable only by you
  --standalone     sync with this desk's own embedded server (<data-dir>/standalone/)
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})
  --once           pull everything once, print a one-line summary, exit 0 when the mirror is current
  --full           also check every record that left the lists (pets no longer public, deleted ones)
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

function holder(): StatusSink & { current: DeskStatus } {
  const sink = {
    current: INITIAL_DESK_STATUS,
    get: () => sink.current,
    update(patch: Partial<DeskStatus>) {
      sink.current = { ...sink.current, ...patch };
      return sink.current;
    },
  };
  return sink;
}

/** The fix to print after a failure, by what went wrong. */
function fixFor(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'unreachable') return 'Check --remote and that the server is running and reachable.';
    if (error.kind === 'needs-auth') return 'Pass a valid key with --key KEY (a read key is enough to sync).';
    if (error.kind === 'rate-limited') return 'Wait for the hourly window to reset, then run it again.';
    if (error.code === 'response_too_large')
      return 'Report it to whoever runs the server; raise --max-response-mb only if such answers are expected.';
    if (error.code === 'response_too_slow')
      return 'Check the network or the server; raise --request-deadline only if the server is known to be this slow.';
  }
  return 'Run it again; if it keeps failing, report the message and request id.';
}

function summaryLine(
  label: string,
  summary: SyncRunSummary,
  counts: ReturnType<typeof countRecords>,
): string {
  const removed = counts.pets.removed > 0 ? `, ${counts.pets.removed} removed` : '';
  return (
    `Synced ${label}: ${counts.pets.listed} pets listed, ${counts.pets.unlisted} unlisted${removed}, ` +
    `${counts.adopters} adopters, ${counts.fosters} fosters; ${summary.requests} requests ` +
    `(${summary.notModified} not modified), ${summary.written} records written in ${(summary.durationMs / 1000).toFixed(1)} s.`
  );
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- sync --help';
  if (argv.includes('--help')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const flags = parseFlags(
    argv,
    {
      remote: { type: 'string' },
      key: { type: 'string' },
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
  if (flags.remote && flags.standalone) throw new CliUsageError('Use either --remote or --standalone.', hint);
  if (flags.key && !flags.remote) throw new CliUsageError('--key goes with --remote URL.', hint);
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  fs.mkdirSync(dataDir, { recursive: true });
  const connections = connectionsFor(dataDir);
  if (flags.remote) {
    try {
      await connections.setRemote(flags.remote, flags.key);
    } catch (error) {
      throw new CliUsageError((error as Error).message, hint);
    }
  } else if (flags.standalone) {
    await connections.setStandalone();
  } else if (!connections.read()) {
    throw new CliUsageError(
      `${dataDir} has no server to sync with yet.`,
      'Pass --remote URL --key KEY once (or --standalone); the data folder remembers them.',
    );
  }

  const mirror = await openDeskMirror({ dataDir });
  const status = holder();
  let failure: unknown;
  const service = new SyncService({
    db: mirror.db,
    resolveConnection: () => connections.resolve(),
    status,
    // Every run first sends the outbox's queued local writes (issue #5).
    hooks: { push: ({ db, client, signal }) => pushOutbox(db, client, signal) },
    clientOptions: {
      ...(flags['request-deadline'] && { deadlineMs: flags['request-deadline'] * 1000 }),
      ...(flags['max-response-mb'] && { maxResponseBytes: flags['max-response-mb'] * 1024 * 1024 }),
    },
  });
  try {
    if (flags.once) {
      const summary = await service
        .syncNow({ metadata: true, fullCheck: flags.full })
        .catch((error: unknown) => {
          failure = error;
          return undefined;
        });
      const label = status.current.remote ?? dataDir;
      const pushed = summary?.push;
      if (pushed && pushed.sent + pushed.failed > 0) {
        io.stderr(
          `Sent ${pushed.sent} queued change(s)${pushed.failed > 0 ? `; the server refused ${pushed.failed} (see: npm run cli -- outbox list)` : ''}.\n`,
        );
      }
      if (summary?.complete) {
        io.stdout(
          flags.json
            ? `${JSON.stringify({ remote: label, ...countRecords(mirror.db), requests: summary.requests, notModified: summary.notModified, written: summary.written })}\n`
            : `${summaryLine(label, summary, countRecords(mirror.db))}\n`,
        );
        return 0;
      }
      const error = service.lastFailure ?? failure;
      const message =
        (error instanceof ApiError ? error.message : undefined) ??
        status.current.error?.message ??
        summary?.problems.join(' ') ??
        status.current.message ??
        'The sync did not complete.';
      const requestId = error instanceof ApiError ? error.requestId : status.current.error?.requestId;
      io.stderr(`${message}${requestId ? ` (request id ${requestId})` : ''}\n${fixFor(error)}\n`);
      return 1;
    }
    service.start();
    let last = '';
    const timer = setInterval(() => {
      const s = status.current;
      const line = `${s.state}${s.progress ? ` ${s.progress.phase} ${s.progress.recordsDone}/${s.progress.recordsTotal ?? '?'}` : ''}${s.error ? `: ${s.error.message}` : s.message ? `: ${s.message}` : ''}`;
      if (line !== last) io.stderr(`${new Date().toISOString()} ${line}\n`);
      last = line;
    }, 250);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    clearInterval(timer);
    return 0;
  } finally {
    await service.stop();
    await connections.close();
    await mirror.close();
  }
}

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: 'Pull the server into the local mirror (once, or every 60 s).',
  usage: USAGE,
  run,
};
