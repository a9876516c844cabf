import { z } from 'zod';
import { defineMethod } from './define';

export const photoMethods = {
  'photos.get': defineMethod({
    summary:
      'A pet photo as a data: URL, from the desk’s photo cache (kept from an earlier look, so it shows offline) or downloaded once and kept; fails with not_found when the address gives no image.',
    input: z.strictObject({ url: z.string().trim().min(1).max(2000) }),
    output: z.object({ dataUrl: z.string() }),
  }),
};
