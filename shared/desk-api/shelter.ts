import { z } from 'zod';
import { DENIED_PERSON_STATUSES, PERSON_STATUSES, personSchema, uuidSchema } from '../contract';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';
import { shelterSettingsMethods } from './shelter-settings';

export * from './shelter-settings';

/**
 * The shelter this desk runs (standalone) or belongs to (connected). `firstRun`: an empty data folder with no
 * connection, where the welcome screen offers to connect, run a shelter here, or try the demo.
 */
export const shelterOverviewSchema = lazySchema(() =>
  z.object({
    role: z.enum(['none', 'remote', 'standalone']),
    firstRun: z.boolean(),
    /**
     * The records are the demo shelter's made-up ones: a standalone shelter holding the demo data (removable under
     * Shelter), or a connected desk whose server said it runs the demo shelter.
     */
    demo: z.boolean(),
    /** The embedded API's address on this PC while standalone and running. */
    apiUrl: z.string().nullable(),
  }),
);
export type ShelterOverview = z.infer<typeof shelterOverviewSchema>;

export const applicationPetSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** What tells it from another pet of its name ('' and null when unknown). */
    species: z.string(),
    customId: z.string().nullable(),
    status: z.string(),
    deleted: z.boolean(),
  }),
);

export const applicationSummarySchema = lazySchema(() =>
  z.object({
    id: z.string(),
    personId: z.string(),
    personName: z.string(),
    personEmail: z.string().nullable(),
    personPhone: z.string().nullable(),
    /** The applicant's status as a person (pending, approved, denied…), null when the person is gone. */
    personStatus: z.string().nullable(),
    kind: z.string(),
    pets: z.array(applicationPetSchema),
    status: z.string(),
    /** The pets the approval placed (adopted or fostered); empty until approved. */
    placedPetIds: z.array(z.string()),
    submittedAt: z.string(),
    decidedAt: z.string().nullable(),
    note: z.string().nullable(),
    /** Why an open application needs a second look (a pet adopted through another application...). */
    flag: z.string().nullable(),
  }),
);
export type ApplicationSummary = z.infer<typeof applicationSummarySchema>;

export const API_KEY_KINDS = ['read', 'write'] as const;

export const apiKeySummarySchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(API_KEY_KINDS),
    /** The first characters of the key, so staff can tell keys apart; never the key. */
    prefix: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    /** The key this desk itself syncs with: revoking it would cut the desk off its own shelter. */
    thisDesk: z.boolean(),
  }),
);
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

export const createdApiKeySchema = lazySchema(() =>
  z.object({
    id: z.string(),
    /** The key itself: shown once, never stored in clear. */
    key: z.string(),
    kind: z.enum(API_KEY_KINDS),
    name: z.string(),
  }),
);
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const backupEntrySchema = lazySchema(() =>
  z.object({
    file: z.string(),
    name: z.string(),
    kind: z.enum(['automatic', 'manual']),
    createdAt: z.string(),
    bytes: z.number().int(),
  }),
);
export type BackupEntry = z.infer<typeof backupEntrySchema>;

export const backupListSchema = lazySchema(() =>
  z.object({
    folder: z.string(),
    backups: z.array(backupEntrySchema),
    /** How many automatic (daily) backups are kept. */
    keep: z.number().int(),
  }),
);

export const lanSharingSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    /** The address other desks use while sharing (https://LAN-IP:PORT/api). */
    address: z.string().nullable(),
    /** A pairing code (address, certificate fingerprint, one-time secret) for the other desk's connect screen. */
    code: z.string().nullable(),
    /** The same code to type on the other desk: its address and eight letters and digits (`192.168.1.20:8787 K7QM-4TXP`). */
    typed: z.string().nullable(),
    /** When the code stops working (ISO 8601); a code also stops once a desk has used it. */
    expiresAt: z.string().nullable(),
    /** SHA-256 of the shelter's certificate (base64url); shown grouped so two people can compare it aloud. */
    fingerprint: z.string().nullable(),
    /** Why sharing is not running although enabled (port taken, no network). */
    problem: z.string().nullable(),
  }),
);
export type LanSharing = z.infer<typeof lanSharingSchema>;

export const shelterMethods = {
  'shelter.overview': defineMethod(() => ({
    summary: 'Whether this desk runs the shelter, is connected to one, or is new (first run).',
    input: noInput,
    output: shelterOverviewSchema,
  })),
  'shelter.setup': defineMethod(() => ({
    summary: 'First run: run an empty shelter here, or the demo shelter (standalone).',
    input: z.strictObject({ choice: z.enum(['standalone', 'demo']) }),
    output: shelterOverviewSchema,
  })),
  'shelter.demo.remove': defineMethod(() => ({
    summary: 'Remove the demo shelter and start an empty one (a backup of the demo is kept).',
    input: noInput,
    output: shelterOverviewSchema,
  })),
  ...shelterSettingsMethods,
  'shelter.applications.list': defineMethod(() => ({
    summary: 'Applications, oldest first; `status` submitted is the inbox.',
    input: z.strictObject({ status: z.enum(['submitted', 'approved', 'denied']).optional() }).optional(),
    output: z.array(applicationSummarySchema),
  })),
  'shelter.applications.counts': defineMethod(() => ({
    summary: 'How many applications are waiting, approved and denied.',
    input: noInput,
    output: z.object({ submitted: z.number(), approved: z.number(), denied: z.number() }),
  })),
  'shelter.applications.decide': defineMethod(() => ({
    summary:
      'Approve (the chosen pets, default the first, are adopted or fostered) or deny an application, with a note.',
    input: z.strictObject({
      id: uuidSchema,
      decision: z.enum(['approved', 'denied']),
      note: z.string().trim().max(2000).optional(),
      petIds: z.array(uuidSchema).min(1, { error: 'choose at least one pet' }).max(50).optional(),
      /** A denial only: what the applicant becomes (left as they are when absent). */
      personStatus: z.enum(DENIED_PERSON_STATUSES).optional(),
    }),
    output: applicationSummarySchema,
  })),
  'shelter.people.setStatus': defineMethod(() => ({
    summary: "Set a person's status (including denied, suspended, blocked) with notes.",
    input: z.strictObject({
      personId: uuidSchema,
      status: z.enum(PERSON_STATUSES),
      notes: z.string().trim().max(2000).optional(),
    }),
    output: personSchema,
  })),
  'shelter.pets.delete': defineMethod(() => ({
    summary: 'Soft-delete a pet: it leaves the public list and GET by id answers 404.',
    input: z.strictObject({ petId: uuidSchema }),
    output: z.null(),
  })),
  'shelter.keys.list': defineMethod(() => ({
    summary: 'API keys of the shelter (never the keys themselves).',
    input: noInput,
    output: z.array(apiKeySummarySchema),
  })),
  'shelter.keys.create': defineMethod(() => ({
    summary: 'Create a read or write key; the key is in the answer once.',
    input: z.strictObject({
      kind: z.enum(API_KEY_KINDS),
      name: z.string().trim().min(1, { error: 'give the key a name' }).max(80),
    }),
    output: createdApiKeySchema,
  })),
  'shelter.keys.revoke': defineMethod(() => ({
    summary: 'Revoke a key at once.',
    input: z.strictObject({ id: z.string().min(1) }),
    output: z.null(),
  })),
  'shelter.backups.list': defineMethod(() => ({
    summary: 'Backups of the shelter database in the data folder, newest first.',
    input: noInput,
    output: backupListSchema,
  })),
  'shelter.backups.create': defineMethod(() => ({
    summary: 'Back up the shelter database now (the server keeps serving).',
    input: noInput,
    output: backupEntrySchema,
  })),
  'shelter.backups.check': defineMethod(() => ({
    summary:
      'Whether a file chosen to restore is there and a SQLite database, with its size and when it changed.',
    input: z.strictObject({ file: z.string().trim().min(1, { error: 'choose a backup file' }) }),
    output: z.object({ file: z.string(), bytes: z.number().int(), modifiedAt: z.string() }),
  })),
  'shelter.backups.restore': defineMethod(() => ({
    summary: 'Replace the shelter database by a backup: stops writes, swaps the file, restarts the server.',
    input: z.strictObject({ file: z.string().trim().min(1, { error: 'choose a backup file' }) }),
    output: z.object({ pets: z.number().int(), people: z.number().int() }),
  })),
  'shelter.lan.get': defineMethod(() => ({
    summary: 'LAN sharing: whether other desks can reach this shelter, and the pairing code.',
    input: noInput,
    output: lanSharingSchema,
  })),
  'shelter.lan.set': defineMethod(() => ({
    summary: 'Turn LAN sharing on (binds the LAN address) or off (closes that listener at once).',
    input: z.strictObject({ enabled: z.boolean() }),
    output: lanSharingSchema,
  })),
  'shelter.lan.newCode': defineMethod(() => ({
    summary: 'Revoke the key in the pairing code and make a new code.',
    input: noInput,
    output: lanSharingSchema,
  })),
};
