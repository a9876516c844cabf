import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { outboxEventSchema } from './outbox';
import { deskSettingsSchema } from './settings';
import { deskProcessEventSchema, menuCommandEventSchema } from './shell';
import { deskStatusSchema } from './status';

/**
 * Everything the core pushes to the renderer. A discriminated union on `type`: to add an event, add a
 * `z.object({ type: z.literal('your-event'), ... })` to the list; listeners narrow on `type`.
 */
export const deskEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** Connection or sync state changed; carries the whole status (no merging needed). */
    z.object({ type: z.literal('status'), status: deskStatusSchema }),
    /** Settings changed (from this window or another). */
    z.object({ type: z.literal('settings'), settings: deskSettingsSchema }),
    /** A sync changed mirrored data: screens showing these collections should reload their page. */
    z.object({
      type: z.literal('mirror-changed'),
      collections: z.array(z.enum(['pets', 'adopters', 'fosters', 'metadata'])),
    }),
    /**
     * A backup is being put in place of the standalone shelter's database (`shelter.backups.restore`), from start to
     * end whatever the outcome: the desktop shell neither checks for nor installs an update meanwhile.
     */
    z.object({ type: z.literal('restore'), running: z.boolean() }),
    /** The outbox changed (a write queued, sent, refused, edited or discarded; a conflict noted or settled). */
    outboxEventSchema,
    /** From the desktop shell: an app command chosen in the menus, and the core process's state. */
    menuCommandEventSchema,
    deskProcessEventSchema,
  ]),
);
export type DeskEvent = z.infer<typeof deskEventSchema>;
export type DeskEventType = DeskEvent['type'];
export type DeskEventOf<T extends DeskEventType> = Extract<DeskEvent, { type: T }>;

/** One raw event as this side knows it, or undefined (an event from a newer core, or one that does not read). */
export function readDeskEvent(raw: unknown): DeskEvent | undefined {
  const event = deskEventSchema.safeParse(raw);
  return event.success ? event.data : undefined;
}
