import { z } from 'zod';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** The forms whose typing the desk keeps until they are saved or cleared. */
export const DRAFT_NAMES = ['intake', 'sign-up'] as const;
export type DraftName = (typeof DRAFT_NAMES)[number];

/** Largest draft kept, as JSON (a form's typing; photos are kept apart, by reference). */
export const MAX_DRAFT_BYTES = 256 * 1024;

const draftNameSchema = lazySchema(() => z.enum(DRAFT_NAMES));

export const draftMethods = {
  'drafts.get': defineMethod(() => ({
    summary:
      'What was typed into a form and not saved yet (an intake, a sign-up), kept on this desk through a reload, a closed window or a crash; null when there is none. The form checks its shape.',
    input: z.strictObject({ name: draftNameSchema }),
    output: z.object({ value: z.unknown(), savedAt: z.string() }).nullable(),
  })),
  'drafts.put': defineMethod(() => ({
    summary: `Keeps what is typed into a form now (at most ${MAX_DRAFT_BYTES / 1024} KB as JSON), replacing the last.`,
    input: z.strictObject({ name: draftNameSchema, value: z.unknown() }),
    output: z.null(),
  })),
  'drafts.clear': defineMethod(() => ({
    summary: 'Forgets a form’s typing: it was saved, or staff cleared it.',
    input: z.strictObject({ name: draftNameSchema }),
    output: z.null(),
  })),
};
