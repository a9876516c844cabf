import { z } from 'zod';
import { personEditSchema, personSchema } from '../contract';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** One pet an application names, as the desk knows it now. */
export const applicationPetRefSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    /** The pet's name, or null when the mirror does not hold it (removed, or never synced). */
    name: z.string().nullable(),
    status: z.string().nullable(),
  }),
);

/**
 * An adoption or foster application as a person's or pet's page shows it. A connected desk knows the applications
 * it sent itself (the API lists none); a desk running its own shelter knows all of them, with their decisions.
 */
export const personApplicationSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    personId: z.string(),
    /** Null when the person is not in the mirror. */
    personName: z.string().nullable(),
    kind: z.string(),
    pets: z.array(applicationPetRefSchema),
    /** 'submitted', 'approved' or 'denied', as last known to this desk. */
    status: z.string(),
    submittedAt: z.string(),
    decidedAt: z.string().nullable(),
    /** The staff note given with the decision (standalone only). */
    note: z.string().nullable(),
    /** The pets placed through this application (approved ones, standalone only). */
    placedPetIds: z.array(z.string()),
    /** False when decisions are not visible to this desk (a connected desk's own sign-ups). */
    decisionsKnown: z.boolean(),
  }),
);
export type PersonApplication = z.infer<typeof personApplicationSchema>;

/** What staff read on a desk connected to a server when they try to edit a person: its API cannot change people. */
export const REMOTE_PERSON_EDIT =
  "This shelter's server does not let other programs change people through its API: edit this person in the " +
  "shelter's own system (or on the desk that runs the shelter), and the change reaches this desk with the next sync.";

const recordId = lazySchema(() =>
  z.strictObject({ id: z.string().trim().min(1, { error: 'must name a record' }) }),
);

export const peopleMethods = {
  'people.update': defineMethod(() => ({
    summary:
      "Change a person's details on the shelter this desk runs (standalone); a connected server's API cannot.",
    input: z.strictObject({ id: z.string().trim().min(1), changes: personEditSchema }),
    output: personSchema,
  })),
  'people.applications': defineMethod(() => ({
    summary: "A person's applications, oldest first (see personApplicationSchema for what the desk knows).",
    input: recordId,
    output: z.array(personApplicationSchema),
  })),
  'pets.applications': defineMethod(() => ({
    summary: 'The applications naming a pet, oldest first.',
    input: recordId,
    output: z.array(personApplicationSchema),
  })),
};
