import { photoPublicOriginSchema } from '../../../shared/contract';
import { type StaffContext, StaffOperationError } from './staff-context';

/** The outcome of setting the public address for photos. */
export interface PhotoPublicOriginChange {
  /** The origin now set, or null when cleared. */
  origin: string | null;
  /** Pets whose photo addresses now name it (their `updated_at` was bumped). */
  petsUpdated: number;
}

/** The shelter's public address for photos (the origin listings link its stored photos under). */
export function photoSettingOperations({ app, tx }: StaffContext) {
  return {
    /** The public address for photos, or null when none is set (addresses then follow the request). */
    photoPublicOrigin(): string | null {
      app.catchUp();
      return app.photoAddresses.publicOrigin() ?? null;
    },
    /**
     * Sets the public address for photos (text as a person typed it; null or blank clears it) and, in the same
     * transaction, points every pet naming one of the shelter's stored photos under another origin at it.
     * Throws StaffOperationError saying what is wrong with an address that is not an http(s) origin.
     */
    setPhotoPublicOrigin(text: string | null): PhotoPublicOriginChange {
      if (text === null || text.trim() === '') {
        tx(() => app.photoAddresses.setPublicOrigin(undefined));
        return { origin: null, petsUpdated: 0 };
      }
      const parsed = photoPublicOriginSchema.safeParse(text);
      if (!parsed.success) throw new StaffOperationError(parsed.error.issues[0]?.message ?? 'Not an origin.');
      const origin = parsed.data;
      if (app.photoAddresses.publicOrigin() === origin) return { origin, petsUpdated: 0 };
      return { origin, petsUpdated: tx(() => app.photoAddresses.setPublicOrigin(origin)) };
    },
  };
}
