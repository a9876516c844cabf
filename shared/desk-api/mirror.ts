import { z } from 'zod';
import {
  adoptionFeeSchema,
  ageCategorySchema,
  contractSchema,
  contractTypeSchema,
  customFieldSchema,
  personCreateTypeSchema,
  personSchema,
  petSchema,
  sexSchema,
  sizeSchema,
  speciesSchema,
} from '../contract';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/**
 * Where a mirrored record stands with the server: listed (in the public list / people list), unlisted (the server
 * has it but no longer lists it: hidden or non-public status), removed (the server answered 404; the desk keeps
 * it), local (created on this desk, not yet accepted by the server).
 */
export const PRESENCES = ['listed', 'unlisted', 'removed', 'local'] as const;
export const presenceSchema = lazySchema(() => z.enum(PRESENCES));
export type Presence = z.infer<typeof presenceSchema>;

export const PET_SORTS = ['relevance', 'name', 'updated', 'created', 'status', 'species', 'intake'] as const;
export const PERSON_SORTS = ['relevance', 'name', 'updated', 'created', 'status'] as const;

const pageQuery = {
  /** Substring search (case-insensitive): pets by name, breed, description, microchip; people by name, email, phone. */
  search: z.string().trim().max(200).optional(),
  /** Case-insensitive status label. */
  status: z.string().trim().min(1).max(100).optional(),
  /** Default: everything except removed. */
  presence: z.array(presenceSchema).min(1).max(4).optional(),
  /** Only records with local edits waiting to be sent. */
  pendingOnly: z.boolean().optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  limit: z.number().int().min(1).max(500).optional(),
  offset: z.number().int().min(0).optional(),
};

export const mirrorPetQuerySchema = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    /** Only pets in the shelter's care: any status but those of `OUT_OF_CARE_STATUSES` (as the Overview counts them). */
    inCare: z.boolean().optional(),
    species: speciesSchema.optional(),
    sex: sexSchema.optional(),
    size: sizeSchema.optional(),
    ageCategory: ageCategorySchema.optional(),
    sort: z.enum(PET_SORTS).optional(),
  }),
);
export type MirrorPetQuery = z.infer<typeof mirrorPetQuerySchema>;

export const mirrorPersonQuerySchema = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    /** One kind of person (adopters, fosters, volunteers, surrenders); everyone when absent. */
    type: personCreateTypeSchema.optional(),
    sort: z.enum(PERSON_SORTS).optional(),
  }),
);
export type MirrorPersonQuery = z.infer<typeof mirrorPersonQuerySchema>;

const bookkeeping = {
  /** True while a local edit of this record waits to be accepted by the server. */
  pending: z.boolean(),
  /** Names of the fields with a pending local edit (show them as "not yet saved on the server"). */
  pendingFields: z.array(z.string()),
  presence: presenceSchema,
};

/** A mirrored pet: the effective record (server version with pending local edits applied) plus bookkeeping. */
// A record created on this desk has a local id (`local-<uuid>`) until the server accepts it.
const mirrorId = { id: z.string().min(1) };
export const mirrorPetSchema = lazySchema(() =>
  z.object({ record: petSchema.extend(mirrorId).loose(), ...bookkeeping }),
);
export type MirrorPet = z.infer<typeof mirrorPetSchema>;
export const mirrorPersonSchema = lazySchema(() =>
  z.object({ record: personSchema.extend(mirrorId).loose(), ...bookkeeping }),
);
export type MirrorPerson = z.infer<typeof mirrorPersonSchema>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** Matching records in the mirror (all pages). */
    total: z.number().int().min(0),
    limit: z.number().int().min(1),
    offset: z.number().int().min(0),
  });

export const mirrorPetPageSchema = lazySchema(() => pageOf(mirrorPetSchema));
export const mirrorPersonPageSchema = lazySchema(() => pageOf(mirrorPersonSchema));

const idInput = lazySchema(() =>
  z.strictObject({ id: z.string().trim().min(1, { error: 'must name a record' }) }),
);

export const mirrorCountsSchema = lazySchema(() =>
  z.object({
    pets: z.object({
      listed: z.number().int(),
      unlisted: z.number().int(),
      removed: z.number().int(),
      local: z.number().int(),
    }),
    adopters: z.number().int(),
    fosters: z.number().int(),
    /** Volunteers and people surrendering an animal: those signed up on this desk, or listed by the server. */
    volunteers: z.number().int(),
    surrenders: z.number().int(),
    /** Records with pending local edits. */
    pending: z.number().int(),
  }),
);

/** A change of a pet's status this desk has seen, with the note before and after it. */
export const petStatusChangeSchema = lazySchema(() =>
  z.object({
    /** When this desk saw it (ISO 8601): the sync that brought it, or the edit made here. */
    at: z.string(),
    from: z.string(),
    fromNotes: z.string().nullable(),
    to: z.string(),
    toNotes: z.string().nullable(),
    /** Made on this desk (an edit waiting to be sent when it was made), not brought by a sync. */
    madeHere: z.boolean(),
  }),
);
export type PetStatusChange = z.infer<typeof petStatusChangeSchema>;

export const mirrorMethods = {
  'mirror.pets.list': defineMethod(() => ({
    summary: 'Mirrored pets with filters, substring search, sort and paging (works offline).',
    input: mirrorPetQuerySchema.optional(),
    output: mirrorPetPageSchema,
  })),
  'mirror.pets.get': defineMethod(() => ({
    summary:
      'One mirrored pet by id (server id, or a local id: also one the server has since replaced); fails with not_found.',
    input: idInput,
    output: mirrorPetSchema,
  })),
  'mirror.pets.statuses': defineMethod(() => ({
    summary:
      "The pet statuses in the mirror (and, standalone, the shelter's custom statuses that can be chosen), for menus.",
    input: noInput,
    output: z.array(z.string()),
  })),
  'mirror.pets.statusChanges': defineMethod(() => ({
    summary:
      "A pet's status changes this desk has seen (syncs and edits made here), newest first, with the notes before and after; at most 50.",
    input: idInput,
    output: z.array(petStatusChangeSchema),
  })),
  'mirror.pets.nextShelterId': defineMethod(() => ({
    summary:
      'The shelter id that would come next on this desk (the pattern of the newest ids, after the highest number in it), or null.',
    input: noInput,
    output: z.object({ next: z.string().nullable() }),
  })),
  'mirror.people.list': defineMethod(() => ({
    summary:
      'Mirrored people (adopters, fosters, volunteers, surrenders) with filters, substring search, sort and paging.',
    input: mirrorPersonQuerySchema.optional(),
    output: mirrorPersonPageSchema,
  })),
  'mirror.people.get': defineMethod(() => ({
    summary: 'One mirrored person by id; fails with not_found.',
    input: idInput,
    output: mirrorPersonSchema,
  })),
  'mirror.customFields': defineMethod(() => ({
    summary: 'Custom field metadata of pets, adopters or fosters, as last synced.',
    input: z.strictObject({ entity: z.enum(['pet', 'adopter', 'foster']) }),
    output: z.object({ fields: z.array(customFieldSchema), fetchedAt: z.string().nullable() }),
  })),
  'mirror.fees': defineMethod(() => ({
    summary: 'Adoption-fee rules, as last synced.',
    input: noInput,
    output: z.object({ fees: z.array(adoptionFeeSchema), fetchedAt: z.string().nullable() }),
  })),
  'mirror.contract': defineMethod(() => ({
    summary: 'The Markdown contract of one type, as last synced (null before the first sync).',
    input: z.strictObject({ type: contractTypeSchema }),
    output: contractSchema.nullable(),
  })),
  'mirror.counts': defineMethod(() => ({
    summary: 'How many pets (by presence), people of each kind and pending edits the mirror holds.',
    input: noInput,
    output: mirrorCountsSchema,
  })),
};
