import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

export const CONNECTION_MODES = ['none', 'remote', 'standalone'] as const;

/** The connection as the settings screen shows it. The API key never crosses the bridge. */
export const connectionSummarySchema = lazySchema(() =>
  z.object({
    mode: z.enum(CONNECTION_MODES),
    /** The remote address, "standalone", or null. */
    remote: z.string().nullable(),
    /** Whether a key is stored (for the remote, or provisioned for standalone). */
    hasKey: z.boolean(),
    /** How the key is kept at rest: encrypted with the OS keychain (desktop) or an owner-only file. */
    keyProtection: z.enum(['encrypted', 'owner-only-file']),
    /** The paired shelter's certificate fingerprint (base64url), shown grouped to compare aloud; null otherwise. */
    fingerprint: z.string().nullable().default(null),
    /**
     * The desk moved this connection from plain HTTP to TLS by itself (an older connection code's address, on a
     * shelter that now shares over HTTPS only), with `from` the old address; shown once, until
     * `sync.connection.acknowledgeTls`. Null otherwise.
     */
    movedToTls: z.object({ from: z.string() }).nullable().default(null),
    /**
     * Set when what was entered on this desk with no connection did not go through, in words for people (what
     * happened, that nothing is lost, what to do): `clash`, it could not be moved to this connection (a row of its own
     * clashes with one to move); `unfinished`, with no connection, it was moved to a connection before but this desk
     * could not clear its copy.
     */
    carryProblem: z
      .object({
        kind: z.enum(['clash', 'unfinished']),
        message: z.string(),
        /** A secondary detail: the record's id (a clash), the reason from the disk (unfinished). */
        detail: z.string(),
      })
      .optional(),
  }),
);
export type ConnectionSummary = z.infer<typeof connectionSummarySchema>;
export type CarryProblem = NonNullable<ConnectionSummary['carryProblem']>;

export const connectionInputSchema = lazySchema(() =>
  z.discriminatedUnion('mode', [
    z.strictObject({
      mode: z.literal('remote'),
      /** Base address; paths start with /api (a trailing /api is accepted). */
      remote: z.string().trim().min(1, { error: 'enter the server address' }).max(500),
      /** Omit to keep the stored key. */
      apiKey: z.string().trim().min(1).max(500).optional(),
      /** The certificate fingerprint to pin (from a pairing code; `sync.connection.pair` sets it). */
      pin: z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/)
        .optional(),
      /** The key came from pairing with that shelter. */
      paired: z.boolean().optional(),
    }),
    /** Host the shelter's data on this desk (embedded server on loopback, key provisioned automatically). */
    z.strictObject({ mode: z.literal('standalone') }),
    /** Forget the connection and its key (the mirror stays). */
    z.strictObject({ mode: z.literal('none') }),
  ]),
);
export type ConnectionInput = z.infer<typeof connectionInputSchema>;

/** A server address and key to try before saving them. */
export const connectionTestInputSchema = lazySchema(() =>
  z.strictObject({
    remote: z.string().trim().min(1, { error: 'enter the server address' }).max(500),
    /** Omit to try the key this desk keeps for that server. */
    apiKey: z.string().trim().min(1).max(500).optional(),
  }),
);

export const connectionTestResultSchema = lazySchema(() =>
  z.object({
    /** The address as the desk will use it. */
    server: z.string(),
    /** Pets the server lists for this key. */
    pets: z.number().int().min(0),
    /** Whether the key may save changes (a read key only syncs); absent when the server did not say. */
    writes: z.boolean().optional(),
  }),
);
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;

export const syncRunResultSchema = lazySchema(() =>
  z.object({
    /** True when every list completed and nothing failed validation. */
    complete: z.boolean(),
    requests: z.number().int(),
    notModified: z.number().int(),
    written: z.number().int(),
    /** One sentence per problem (also shown through the status). */
    problems: z.array(z.string()),
    durationMs: z.number(),
  }),
);
export type SyncRunResult = z.infer<typeof syncRunResultSchema>;

export const fullCheckEstimateSchema = lazySchema(() =>
  z.object({
    /** List pages the full check reads (every list in full; pages unchanged since the last reading answer 304). */
    listRequests: z.number().int().min(0),
    /** Records off the lists (unlisted, removed) asked about one by one. */
    recordRequests: z.number().int().min(0),
    /** Rough duration, from the pace of recent syncs. */
    seconds: z.number().int().min(0),
    /** Records the mirror holds from the server. */
    records: z.number().int().min(0),
    /** A full check is under way now. */
    running: z.boolean(),
  }),
);
export type FullCheckEstimate = z.infer<typeof fullCheckEstimateSchema>;

export const syncMethods = {
  'sync.now': defineMethod(() => ({
    summary:
      'The ordinary sync now (after a run in progress): what changed since the last sync, plus the cheap check for records that left the lists. `full` runs the full check instead (see sync.fullCheck.start). Null when not connected or the run failed (the status says why).',
    input: z.strictObject({ full: z.boolean().optional() }).optional(),
    output: syncRunResultSchema.nullable(),
  })),
  'sync.fullCheck.estimate': defineMethod(() => ({
    summary:
      'What the full check would cost (requests and time) before starting it, and whether one is running.',
    input: noInput,
    output: fullCheckEstimateSchema,
  })),
  'sync.fullCheck.start': defineMethod(() => ({
    summary:
      'The full check: reads every list in full and asks the server about every record off the lists (hidden, deleted), refreshing them. Resolves when it ends; null when it failed or was stopped.',
    input: noInput,
    output: syncRunResultSchema.nullable(),
  })),
  'sync.fullCheck.stop': defineMethod(() => ({
    summary: 'Stops a full check under way; what it already stored stays. False when none was running.',
    input: noInput,
    output: z.object({ stopped: z.boolean() }),
  })),
  'sync.networkChanged': defineMethod(() => ({
    summary:
      'The system says the network came or went (a hint, never trusted as reachability): check the server soon with a real request, so a desk back online syncs without waiting for its backoff.',
    input: noInput,
    output: z.null(),
  })),
  'sync.watch': defineMethod(() => ({
    summary:
      'A window (`watcher`: its own id) shows the status (visible) or no longer does: while one does, the core checks every few seconds that the server still accepts connections (no request sent), so the status notices it going or coming back within seconds. A visible window says so again within WATCH_LEASE_MS; one not heard from for that long (closed, crashed) no longer counts.',
    input: z.strictObject({ visible: z.boolean(), watcher: z.string().min(1).max(100) }),
    output: z.null(),
  })),
  'sync.connection.get': defineMethod(() => ({
    summary: 'The connection settings (never the key).',
    input: noInput,
    output: connectionSummarySchema,
  })),
  'sync.connection.test': defineMethod(() => ({
    summary:
      'Tries a server address and key without saving anything: the first page of pets, then whether the key may save changes (a PATCH of no fields to a pet that does not exist, which no server applies: a read key is refused it). Fails with the reason in words (unreachable, key refused, not a Shelter Desk server).',
    input: connectionTestInputSchema,
    output: connectionTestResultSchema,
  })),
  'sync.connection.pair': defineMethod(() => ({
    summary:
      'Joins a shelter with its pairing code: over TLS pinned to the code’s certificate, exchanges the one-time secret for a key named after this desk, then connects to it (a sync follows). Refuses another certificate, and a used or expired code, in words that say what to do.',
    input: z.strictObject({
      code: z.string().trim().min(1, { error: 'paste the pairing code' }).max(1000),
      /** The name the shelter lists this desk's key under (default: the desk's name from Settings, or the host name). */
      deskName: z.string().trim().min(1).max(80).optional(),
    }),
    output: connectionSummarySchema,
  })),
  'sync.connection.acknowledgeTls': defineMethod(() => ({
    summary:
      'The person has read that the connection moved to TLS by itself (and compared its fingerprint): the notice is not shown again.',
    input: noInput,
    output: connectionSummarySchema,
  })),
  'sync.connection.plan': defineMethod(() => ({
    summary:
      'Whether an address (with the certificate a pairing code names, if any) is the connection set now, changing nothing: the same address, or the same paired shelter answering at another one (its pinned certificate, seen there in a TLS handshake that sends nothing). `movedFrom` is the address it had.',
    input: z.strictObject({
      remote: z.string().trim().min(1, { error: 'enter the server address' }).max(500),
      pin: z.string().trim().min(1).max(200).optional(),
    }),
    output: z.object({ sameConnection: z.boolean(), movedFrom: z.string().nullable() }),
  })),
  'sync.connection.set': defineMethod(() => ({
    summary: 'Change the connection (remote address and key, standalone, or none); a sync follows.',
    input: connectionInputSchema,
    output: connectionSummarySchema,
  })),
};
