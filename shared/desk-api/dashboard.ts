import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

export { OUT_OF_CARE_STATUSES } from './out-of-care';

const count = lazySchema(() => z.number().int().min(0));
const days = lazySchema(() => z.number().min(0).nullable());

/** The shelter at a glance, computed from the mirror only (works offline). */
export const dashboardSchema = lazySchema(() =>
  z.object({
    /** This computer's calendar date the figures are for (YYYY-MM-DD). */
    today: z.string(),
    inCare: z.object({
      total: count,
      byStatus: z.array(z.object({ status: z.string(), count })),
      bySpecies: z.array(z.object({ species: z.string(), count })),
    }),
    /** The last 12 calendar months, oldest first, the current month last. */
    months: z.array(z.object({ month: z.string(), intakes: count, adoptions: count })),
    lengthOfStay: z.object({
      /** Animals in care with an intake date: days since intake. */
      inCare: z.object({
        count,
        medianDays: days,
        averageDays: days,
        buckets: z.array(z.object({ label: z.string(), count })),
      }),
      /** Adoptions in the last 12 months with an intake date: days from intake to adoption. */
      adopted: z.object({ count, medianDays: days, averageDays: days }),
    }),
    /** People waiting for a decision: adopters and fosters whose status is pending. */
    applications: z.object({ waiting: count, adopters: count, fosters: count }),
    fosters: z.object({
      active: count,
      /** Places offered by active fosters (their capacity). */
      places: count,
      /** Pets whose status is fostered. */
      petsInFoster: count,
      free: count,
      /** Active fosters who offer places, most places first (at most 8). */
      withCapacity: z.array(z.object({ id: z.string(), name: z.string(), capacity: count })),
    }),
    sync: z.object({
      /** Changes queued in the outbox (waiting to be sent or being retried). */
      waiting: count,
      /** Changes the server refused: they wait for a person to fix or discard them. */
      needsAttention: count,
      /** Pets and people with changes not yet on the server. */
      records: count,
    }),
  }),
);
export type Dashboard = z.infer<typeof dashboardSchema>;

export const dashboardMethods = {
  'dashboard.get': defineMethod(() => ({
    summary:
      'Animals in care, intakes and adoptions by month, length of stay, waiting people and changes (mirror only).',
    input: noInput,
    output: dashboardSchema,
  })),
};
