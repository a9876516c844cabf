import { type DeskStatus, deskStatusSchema, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import type { EventHub } from './event-hub';

export interface StatusHub {
  get(): DeskStatus;
  /**
   * Changes some fields of the status (validated) and emits one `status` event with the whole new
   * status when anything changed. The sync engine is the main writer.
   */
  update(patch: Partial<DeskStatus>): DeskStatus;
}

/** Holds the connection and sync status the UI shows, starting at "not connected". */
export function createStatusHub(events: EventHub, initial: DeskStatus = INITIAL_DESK_STATUS): StatusHub {
  let current = deskStatusSchema.parse(initial);
  return {
    get: () => current,
    update(patch) {
      const next = deskStatusSchema.parse({ ...current, ...patch });
      if (JSON.stringify(next) === JSON.stringify(current)) return current;
      current = next;
      events.emit({ type: 'status', status: current });
      return current;
    },
  };
}
