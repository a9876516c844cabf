import { DeskCallError } from '../../../../shared/desk-api';
import { type PhotoCache, PhotoUnavailableError } from '../../photos';
import type { HandlerRegistry } from '../handler-registry';

/** `photos.*`: pet photos kept by the desk (bounded, oldest dropped) so lists and drawers show them offline. */
export function registerPhotoHandlers(registry: HandlerRegistry, cache: PhotoCache): void {
  registry.handle('photos.get', async ({ url }) => {
    try {
      const photo = await cache.get(url);
      return { dataUrl: `data:${photo.mime};base64,${photo.bytes.toString('base64')}` };
    } catch (error) {
      if (error instanceof PhotoUnavailableError) {
        throw new DeskCallError({ code: 'not_found', message: error.message });
      }
      throw error;
    }
  });
}
