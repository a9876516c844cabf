import { z } from 'zod';
import { fieldErrorSchema } from '../contract/errors';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** What an outbox entry does on the server. People have no update endpoint in the API. */
export const OUTBOX_OPERATIONS = ['pet.create', 'pet.update', 'person.create'] as const;
export const outboxOperationSchema = lazySchema(() => z.enum(OUTBOX_OPERATIONS));
export type OutboxOperation = z.infer<typeof outboxOperationSchema>;

/**
 * - pending: waiting to be sent (or sent and waiting for a retry after a network error, 5xx or 429);
 * - needs-attention: the server refused it (400, 403, 404, 409 key reused) or the desk cannot tell safely
 *   whether an old write already happened; a person edits and resubmits it, or discards it.
 */
export const OUTBOX_STATES = ['pending', 'needs-attention'] as const;
export const outboxStateSchema = lazySchema(() => z.enum(OUTBOX_STATES));
export type OutboxState = z.infer<typeof outboxStateSchema>;

/** The last failure of an entry, with the server's request id when the server answered. */
export const outboxErrorSchema = lazySchema(() =>
  z.object({
    status: z.number().int().nullable(),
    code: z.string().nullable(),
    message: z.string(),
    requestId: z.string().nullable(),
    fieldErrors: z.array(fieldErrorSchema).optional(),
  }),
);
export type OutboxError = z.infer<typeof outboxErrorSchema>;

/** One queued write, as the Sync screen and `outbox list` show it. */
export const outboxEntrySchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    operation: outboxOperationSchema,
    entityType: z.enum(['pet', 'person']),
    /** The record it writes: a local id (`local-…`) until the server has accepted the record's create. */
    entityId: z.string(),
    /** One line for people, e.g. `Update pet "Rex": status, description`. */
    summary: z.string(),
    method: z.enum(['POST', 'PATCH']),
    path: z.string(),
    /** The JSON body exactly as it is (or will be) sent. */
    body: z.unknown(),
    /** Made once when the entry is queued (or resubmitted after an edit) and reused on every retry. */
    idempotencyKey: z.string(),
    state: outboxStateSchema,
    /** Why a pending entry is not sent now (waits for a local record's create, an earlier entry, the key). */
    waitingFor: z.string().nullable(),
    attempts: z.number().int().min(0),
    createdAt: z.string(),
    /** When it was first handed to the network; after that its body and key never change. */
    firstSentAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    lastError: outboxErrorSchema.nullable(),
  }),
);
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

/** The server changed a field the worker also changed offline; the worker's value was sent. */
export const outboxConflictSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    entityType: z.enum(['pet', 'person']),
    entityId: z.string(),
    /** The record's name when the notice was made. */
    recordName: z.string(),
    field: z.string(),
    /** The server's value before the worker's edit. */
    baseValue: z.unknown(),
    /** The value another desk or person saved on the server meanwhile (replaced by the worker's). */
    serverValue: z.unknown(),
    /** The worker's value, which the desk sent. */
    localValue: z.unknown(),
    detectedAt: z.string(),
  }),
);
export type OutboxConflict = z.infer<typeof outboxConflictSchema>;

export const DUPLICATE_KINDS = ['microchip', 'shelter-id', 'email', 'name-phone'] as const;
export const duplicateWarningSchema = lazySchema(() =>
  z.object({
    kind: z.enum(DUPLICATE_KINDS),
    /** One sentence naming the other record and what it shares with this one; each screen says how to go on. */
    message: z.string(),
    existingId: z.string(),
    existingName: z.string(),
  }),
);
export type DuplicateWarning = z.infer<typeof duplicateWarningSchema>;

/** The result of a local write: queued (mirror and outbox updated together), or held back by duplicate warnings. */
export const localWriteResultSchema = lazySchema(() =>
  z.discriminatedUnion('status', [
    z.object({
      status: z.literal('queued'),
      entityType: z.enum(['pet', 'person']),
      /** The record's id in the mirror (a local id for a new record). */
      entityId: z.string(),
      /** Entries queued or merged by this write (a surrender with new pets queues one per pet, then the person). */
      entryIds: z.array(z.number().int()),
      /** Local ids of pets created by a surrender with new pets, in the order given. */
      createdPetIds: z.array(z.string()),
      /** The effective record as the mirror now shows it. */
      record: z.record(z.string(), z.unknown()),
    }),
    z.object({ status: z.literal('duplicates'), warnings: z.array(duplicateWarningSchema) }),
  ]),
);
export type LocalWriteResult = z.infer<typeof localWriteResultSchema>;

export const outboxCountsSchema = lazySchema(() =>
  z.object({
    pending: z.number().int().min(0),
    needsAttention: z.number().int().min(0),
    conflicts: z.number().int().min(0),
    /** Set while the server refuses the API key (401): nothing is sent until the key changes or a retry. */
    pausedReason: z.string().nullable(),
  }),
);
export type OutboxCounts = z.infer<typeof outboxCountsSchema>;

const fieldsSchema = lazySchema(() => z.record(z.string(), z.unknown()));
const force = lazySchema(() => z.boolean().optional());

export const outboxMethods = {
  'outbox.createPet': defineMethod(() => ({
    summary:
      'Create a pet on this desk (pet write fields, validated like POST /api/pets); sent when online. `force` overrides duplicate warnings.',
    input: z.strictObject({ fields: fieldsSchema, force }),
    output: localWriteResultSchema,
  })),
  'outbox.updatePet': defineMethod(() => ({
    summary:
      'Change some fields of a pet (by id, local id or custom_id); only the given fields are sent (PATCH).',
    input: z.strictObject({ id: z.string().min(1), fields: fieldsSchema, force }),
    output: localWriteResultSchema,
  })),
  'outbox.createPerson': defineMethod(() => ({
    summary:
      'Create an adopter or foster (optionally with an application), a surrender (with new or linked pets) or a volunteer; the body is a POST /api/people request whose pet ids may be local ids.',
    input: z.strictObject({ request: fieldsSchema, force }),
    output: localWriteResultSchema,
  })),
  'outbox.list': defineMethod(() => ({
    summary: 'Queued writes in order, with their state, plus the counts the status area shows.',
    input: z
      .strictObject({ state: outboxStateSchema.optional(), entityId: z.string().optional() })
      .optional(),
    output: z.object({ entries: z.array(outboxEntrySchema), counts: outboxCountsSchema }),
  })),
  'outbox.retry': defineMethod(() => ({
    summary:
      'Send now: one entry (a needs-attention entry is resubmitted unchanged, with a new key when the server refused the old one), or without id every pending entry (also resumes after a refused key).',
    input: z.strictObject({ id: z.number().int().optional() }).optional(),
    output: outboxCountsSchema,
  })),
  'outbox.discard': defineMethod(() => ({
    summary:
      'Drop a never-accepted entry and undo its change in the mirror; discarding a create also drops the later entries of that record.',
    input: z.strictObject({ id: z.number().int() }),
    output: z.object({ discarded: z.array(z.number().int()), counts: outboxCountsSchema }),
  })),
  'outbox.edit': defineMethod(() => ({
    summary:
      'Replace the body of a needs-attention entry (validated again) and resubmit it with a new Idempotency-Key.',
    input: z.strictObject({ id: z.number().int(), body: fieldsSchema }),
    output: outboxEntrySchema,
  })),
  'outbox.conflicts': defineMethod(() => ({
    summary: 'Conflict notices: fields the server changed while the worker changed them offline.',
    input: noInput,
    output: z.array(outboxConflictSchema),
  })),
  'outbox.resolveConflict': defineMethod(() => ({
    summary:
      'Settles the notices of one record together: keep the worker values (dismiss them) or use the server values (one PATCH restoring them all, or none).',
    input: z.strictObject({
      ids: z.array(z.number().int()).min(1).max(100),
      choice: z.enum(['mine', 'server']),
    }),
    output: outboxCountsSchema,
  })),
};

/** Sent whenever an entry is queued, sent, refused, edited or discarded, or a conflict appears or goes. */
export const outboxEventSchema = lazySchema(() =>
  z.object({
    type: z.literal('outbox'),
    counts: outboxCountsSchema,
    /** Records whose effective version changed (screens showing them refresh). */
    changed: z.array(z.object({ entityType: z.enum(['pet', 'person']), id: z.string() })),
  }),
);
export type OutboxEvent = z.infer<typeof outboxEventSchema>;
