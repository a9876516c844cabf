import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';
import { deskErrorSchema } from './errors';

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
export const deskStatusStateSchema = z.enum(DESK_STATUS_STATES);
export type DeskStatusState = z.infer<typeof deskStatusStateSchema>;

export const syncProgressSchema = z.object({
  /** What is being done, e.g. "Pets" or "Adopters". */
  phase: z.string(),
  pagesDone: z.number().int().min(0),
  recordsDone: z.number().int().min(0),
  /** Unknown until the first page of a collection arrives. */
  recordsTotal: z.number().int().min(0).nullable(),
});
export type SyncProgress = z.infer<typeof syncProgressSchema>;

export const deskStatusSchema = z.object({
  state: deskStatusStateSchema,
  /** The server this desk syncs with (base address), or null when none is set. */
  remote: z.string().nullable(),
  /** One sentence for people, when the state alone is not enough. */
  message: z.string().nullable(),
  /** Date-time of the last complete sync pass. */
  lastSyncedAt: z.string().nullable(),
  progress: syncProgressSchema.nullable(),
  error: deskErrorSchema.nullable(),
  /** Local edits waiting to be sent. */
  pending: z.number().int().min(0),
  /** Local edits the server refused; a person must look at them. */
  needsAttention: z.number().int().min(0),
});
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
};

export const statusMethods = {
  'status.get': defineMethod({
    summary: 'The current connection and sync status (the same value `status` events carry).',
    input: noInput,
    output: deskStatusSchema,
  }),
};
