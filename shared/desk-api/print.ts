import { z } from 'zod';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';
import { mirrorPetQuerySchema } from './mirror';

export const PAPERS = ['a4', 'letter'] as const;
export const paperSchema = lazySchema(() => z.enum(PAPERS, { error: 'must be a4 or letter' }));
export type Paper = z.infer<typeof paperSchema>;

/** A PDF made by the core: the same bytes whether the desk app, browser mode or the CLI asked for it. */
export const printedPdfSchema = lazySchema(() =>
  z.object({
    /** A file name to offer when saving, e.g. `kennel-card-rex-rar-000123.pdf`. */
    filename: z.string(),
    /** The PDF, base64 (the bridge carries JSON). */
    base64: z.string(),
    pages: z.number().int().min(1),
    bytes: z.number().int().min(1),
  }),
);
export type PrintedPdfResult = z.infer<typeof printedPdfSchema>;

const id = lazySchema(() => z.string().trim().min(1, { error: 'must name a record' }));
const paper = { paper: paperSchema.default('a4') };

/** The Pets-list filter a batch of cards follows (everything the list filters by, without paging). */
export const cardFilterSchema = lazySchema(() => mirrorPetQuerySchema.omit({ limit: true, offset: true }));

export const printMethods = {
  'print.kennelCard': defineMethod(() => ({
    summary: "One pet's kennel card (one page), by id, local id or the shelter's custom id; from the mirror.",
    input: z.strictObject({ id, ...paper }),
    output: printedPdfSchema,
  })),
  'print.cards': defineMethod(() => ({
    summary:
      'Kennel cards for an event: the chosen pets, or every pet a Pets-list filter shows; one page each.',
    input: z.union([
      z.strictObject({ petIds: z.array(id).min(1, { error: 'choose at least one pet' }).max(500), ...paper }),
      z.strictObject({ filter: cardFilterSchema, ...paper }),
    ]),
    output: printedPdfSchema,
  })),
  'print.contract': defineMethod(() => ({
    summary:
      "An agreement filled in from the mirror: a person's (adopter, foster, volunteer or surrender contract, with the pets named: by default an adopter's adopted pets), or an application's (its applicant and the pets applied for, with fees).",
    input: z.union([
      z.strictObject({
        personId: id,
        /** The animals the agreement names; default for an adopter: the pets adopted by them. */
        petIds: z.array(id).max(20).optional(),
        ...paper,
      }),
      z.strictObject({ applicationId: id, ...paper }),
    ]),
    output: printedPdfSchema,
  })),
};
