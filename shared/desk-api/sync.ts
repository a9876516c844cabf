import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';

export const CONNECTION_MODES = ['none', 'remote', 'standalone'] as const;

/** The connection as the settings screen shows it. The API key never crosses the bridge. */
export const connectionSummarySchema = z.object({
  mode: z.enum(CONNECTION_MODES),
  /** The remote address, "standalone", or null. */
  remote: z.string().nullable(),
  /** Whether a key is stored (for the remote, or provisioned for standalone). */
  hasKey: z.boolean(),
  /** How the key is kept at rest: encrypted with the OS keychain (desktop) or an owner-only file. */
  keyProtection: z.enum(['encrypted', 'owner-only-file']),
});
export type ConnectionSummary = z.infer<typeof connectionSummarySchema>;

export const connectionInputSchema = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('remote'),
    /** Base address; paths start with /api (a trailing /api is accepted). */
    remote: z.string().trim().min(1, { error: 'enter the server address' }).max(500),
    /** Omit to keep the stored key. */
    apiKey: z.string().trim().min(1).max(500).optional(),
  }),
  /** Host the shelter's data on this desk (embedded server on loopback, key provisioned automatically). */
  z.strictObject({ mode: z.literal('standalone') }),
  /** Forget the connection and its key (the mirror stays). */
  z.strictObject({ mode: z.literal('none') }),
]);
export type ConnectionInput = z.infer<typeof connectionInputSchema>;

export const syncRunResultSchema = z.object({
  /** True when every list completed and nothing failed validation. */
  complete: z.boolean(),
  requests: z.number().int(),
  notModified: z.number().int(),
  written: z.number().int(),
  /** One sentence per problem (also shown through the status). */
  problems: z.array(z.string()),
  durationMs: z.number(),
});
export type SyncRunResult = z.infer<typeof syncRunResultSchema>;

export const syncMethods = {
  'sync.now': defineMethod({
    summary:
      'Sync now (after a run in progress); `full` also checks records that left the lists. Null when not connected or the run failed (the status says why).',
    input: z.strictObject({ full: z.boolean().optional() }).optional(),
    output: syncRunResultSchema.nullable(),
  }),
  'sync.networkChanged': defineMethod({
    summary:
      'The system says the network came or went (a hint, never trusted as reachability): check the server soon with a real request, so a desk back online syncs without waiting for its backoff.',
    input: noInput,
    output: z.null(),
  }),
  'sync.connection.get': defineMethod({
    summary: 'The connection settings (never the key).',
    input: noInput,
    output: connectionSummarySchema,
  }),
  'sync.connection.set': defineMethod({
    summary: 'Change the connection (remote address and key, standalone, or none); a sync follows.',
    input: connectionInputSchema,
    output: connectionSummarySchema,
  }),
};
