import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';
import { deskErrorSchema } from './errors';
import { lazySchema } from './lazy-schema';

/**
 * Connection and sync state, as the status area shows it.
 * - not-connected: no remote or standalone server is configured yet.
 * - offline: configured, but the server is not reachable (a real request failed).
 * - connecting / syncing / idle: reaching the server / pulling or pushing / current.
 * - error: the last pass failed; `error` says why (with the server's request id when it has one).
 * - needs-auth: the server refused the API key (401/403); syncing waits for a new key.
 */
export const DESK_STATUS_STATES = [
  'not-connected',
  'offline',
  'connecting',
  'syncing',
  'idle',
  'error',
  'needs-auth',
] as const;
export const deskStatusStateSchema = lazySchema(() => z.enum(DESK_STATUS_STATES));
export type DeskStatusState = z.infer<typeof deskStatusStateSchema>;

/**
 * What a sync run is doing to a list:
 * - filling: the first sync of the list (the mirror does not hold it all yet: "1,200 of about 87,000");
 * - updating: reading what changed since the last sync;
 * - repairing: re-reading what shifted while the list changed under the desk;
 * - checking: reading the list to find records that left it (hidden, deleted), or the full check;
 * - finishing: after a first sync read a large list, putting its records into the search index and building the
 *   list indexes ("40,000 of 88,000" records indexed); the list and its searches work meanwhile, only slower.
 */
export const SYNC_STAGES = ['filling', 'updating', 'repairing', 'checking', 'finishing'] as const;
export const syncStageSchema = lazySchema(() => z.enum(SYNC_STAGES));
export type SyncStage = z.infer<typeof syncStageSchema>;

export const syncProgressSchema = lazySchema(() =>
  z.object({
    /** What is being done, e.g. "Pets" or "Adopters". */
    phase: z.string(),
    stage: syncStageSchema.optional(),
    /** The list being read, when the step reads one (not the search being prepared for a whole table, say). */
    list: z.enum(['pets', 'adopters', 'fosters']).optional(),
    pagesDone: z.number().int().min(0),
    recordsDone: z.number().int().min(0),
    /** Unknown until the first page of a collection arrives; "about": the list may change while it is read. */
    recordsTotal: z.number().int().min(0).nullable(),
  }),
);
export type SyncProgress = z.infer<typeof syncProgressSchema>;

export const deskStatusSchema = lazySchema(() =>
  z.object({
    state: deskStatusStateSchema,
    /** The server this desk syncs with (base address), or null when none is set. */
    remote: z.string().nullable(),
    /** One sentence for people, when the state alone is not enough. */
    message: z.string().nullable(),
    /**
     * Date-time of the last sync that converged (every list complete): the one "last synced" time every screen shows.
     * The state is `idle` only after such a sync; a run that could not complete leaves `error` with the reason.
     */
    lastSyncedAt: z.string().nullable(),
    progress: syncProgressSchema.nullable(),
    error: deskErrorSchema.nullable(),
    /** Local edits waiting to be sent. */
    pending: z.number().int().min(0),
    /** Local edits the server refused; a person must look at them. */
    needsAttention: z.number().int().min(0),
    /**
     * Records whose change made here met another change of the same fields on the server meanwhile: this desk's value
     * was sent (the latest write wins), and a person should check which one stays (Sync lists them).
     */
    toCheck: z.number().int().min(0).default(0),
  }),
);
export type DeskStatus = z.infer<typeof deskStatusSchema>;

/** The status before anything is configured. */
export const INITIAL_DESK_STATUS: DeskStatus = {
  state: 'not-connected',
  remote: null,
  message: null,
  lastSyncedAt: null,
  progress: null,
  error: null,
  pending: 0,
  needsAttention: 0,
  toCheck: 0,
};

export const statusMethods = {
  'status.get': defineMethod(() => ({
    summary: 'The current connection and sync status (the same value `status` events carry).',
    input: noInput,
    output: deskStatusSchema,
  })),
};
