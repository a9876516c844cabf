import { request } from 'undici';
import { EXTENSIONS_HEADER, PHOTOS_EXTENSION } from '../../../../shared/contract';
import { DeskCallError } from '../../../../shared/desk-api';
import {
  PHOTO_CHUNK_BYTES,
  PHOTO_FILE_MAX_BYTES,
  photoTooLargeMessage,
} from '../../../../shared/desk-api/photos';
import { PhotoRejectedError, processPhoto } from '../../../platform/photo-image';
import {
  deskPhoto,
  deskPhotoLocalId,
  deskPhotoRef,
  keepTakenPhoto,
  serverTakesLinksOnly,
} from '../../outbox';
import { type PhotoCache, PhotoUnavailableError } from '../../photos';
import { type ConnectionManager, STANDALONE_ID } from '../../sync';
import type { HandlerRegistry } from '../handler-registry';
import type { DeskSessions } from '../sessions';

/** How long what a server announced is believed before it is asked again. */
const PROBE_KEPT_MS = 10 * 60_000;
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Whether the connected server announces the photo extension (`X-Shelter-Desk-Extensions: photos` on any
 * response): one small keyed GET, remembered per server for a few minutes; undefined when it cannot be asked.
 */
export function photoExtensionProbe(
  connections: Pick<ConnectionManager, 'resolve'>,
): () => Promise<boolean | undefined> {
  let remembered: { baseUrl: string; at: number; announced: boolean } | undefined;
  return async () => {
    const connection = await connections.resolve();
    if (!connection) return undefined;
    if (remembered?.baseUrl === connection.baseUrl && Date.now() - remembered.at < PROBE_KEPT_MS) {
      return remembered.announced;
    }
    const base = connection.baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
    try {
      const response = await request(`${base}/api/pets?limit=1`, {
        headers: { 'x-api-key': connection.apiKey },
        headersTimeout: PROBE_TIMEOUT_MS,
        bodyTimeout: PROBE_TIMEOUT_MS,
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.body.dump();
      if (response.statusCode >= 500 || response.statusCode === 401 || response.statusCode === 429)
        return undefined;
      const header = String(response.headers[EXTENSIONS_HEADER] ?? '');
      const announced = header.split(',').some((name) => name.trim() === PHOTOS_EXTENSION);
      remembered = { baseUrl: connection.baseUrl, at: Date.now(), announced };
      return announced;
    } catch {
      return undefined;
    }
  };
}

/** A file on its way from a window in pieces; dropped when it is not taken within this time. */
const STAGED_FOR_MS = 10 * 60_000;

interface Staged {
  pieces: Map<number, Buffer>;
  size: number;
  timer: NodeJS.Timeout;
}

const dataUrlOf = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

/**
 * `photos.*`: pet photos shown from the desk (the photos taken here, and every other one kept after a first look,
 * bounded, oldest dropped, so lists and drawers show them offline) and photos taken here: a file comes from the
 * window in pieces (a bridge call is at most 1 MiB), is made safe to publish with sharp, and is kept in the active
 * connection's mirror until the outbox uploads it before the pet write that names it.
 */
export function registerPhotoHandlers(
  registry: HandlerRegistry,
  cache: PhotoCache,
  sessions: Pick<DeskSessions, 'current'>,
  /** Asks the connected server whether it announces the photo extension (undefined: it could not be asked). */
  probeServer?: () => Promise<boolean | undefined>,
): void {
  const staged = new Map<string, Staged>();
  const drop = (uploadId: string) => {
    const entry = staged.get(uploadId);
    if (entry) clearTimeout(entry.timer);
    staged.delete(uploadId);
  };

  registry.handle('photos.get', async ({ url }) => {
    const localId = deskPhotoLocalId(url);
    if (localId) {
      const photo = deskPhoto((await sessions.current()).mirror.db, localId);
      if (!photo) throw new DeskCallError({ code: 'not_found', message: 'This photo is not on this desk.' });
      return { dataUrl: dataUrlOf('image/jpeg', photo.bytes) };
    }
    try {
      const photo = await cache.get(url);
      return { dataUrl: dataUrlOf(photo.mime, photo.bytes) };
    } catch (error) {
      if (error instanceof PhotoUnavailableError) {
        throw new DeskCallError({ code: 'not_found', message: error.message });
      }
      throw error;
    }
  });

  registry.handle('photos.chunk', ({ uploadId, index, data }) => {
    let entry = staged.get(uploadId);
    if (!entry) {
      entry = {
        pieces: new Map(),
        size: 0,
        timer: setTimeout(() => drop(uploadId), STAGED_FOR_MS),
      };
      entry.timer.unref();
      staged.set(uploadId, entry);
    }
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > PHOTO_CHUNK_BYTES) {
      drop(uploadId);
      throw new DeskCallError({ code: 'invalid_input', message: 'A piece of the photo was too large.' });
    }
    entry.size += bytes.length - (entry.pieces.get(index)?.length ?? 0);
    entry.pieces.set(index, bytes);
    if (entry.size > PHOTO_FILE_MAX_BYTES) {
      drop(uploadId);
      throw new DeskCallError({
        code: 'invalid_input',
        // The size so far: the whole file's is not known until its last piece.
        message: photoTooLargeMessage(undefined),
      });
    }
    return { received: entry.size };
  });

  registry.handle('photos.take', async ({ uploadId, pieces }) => {
    const entry = staged.get(uploadId);
    drop(uploadId);
    const parts: Buffer[] = [];
    for (let index = 0; index < pieces; index++) {
      const part = entry?.pieces.get(index);
      if (!part) {
        throw new DeskCallError({
          code: 'invalid_input',
          message: 'The photo did not arrive whole; add it again.',
        });
      }
      parts.push(part);
    }
    let processed: Awaited<ReturnType<typeof processPhoto>>;
    try {
      processed = await processPhoto(Buffer.concat(parts));
    } catch (error) {
      if (error instanceof PhotoRejectedError) {
        throw new DeskCallError({ code: 'invalid_input', message: error.message });
      }
      throw error;
    }
    const db = (await sessions.current()).mirror.db;
    const kept = db.transaction(() => keepTakenPhoto(db, processed, Date.now()))();
    return {
      ref: deskPhotoRef(kept.local_id),
      width: kept.width,
      height: kept.height,
      bytes: kept.bytes.length,
      dataUrl: dataUrlOf('image/jpeg', kept.bytes),
    };
  });

  registry.handle('photos.support', async () => {
    const session = await sessions.current();
    if (session.id === STANDALONE_ID) return { support: 'uploads' as const };
    const announced = await probeServer?.().catch(() => undefined);
    if (announced !== undefined)
      return { support: announced ? ('uploads' as const) : ('links-only' as const) };
    // Not reachable now: what the last upload found.
    if (serverTakesLinksOnly(session.mirror.db)) return { support: 'links-only' as const };
    const known = session.mirror.db.prepare(`SELECT 1 FROM desk_photo WHERE state = 'sent' LIMIT 1`).get();
    return { support: known ? ('uploads' as const) : ('unknown' as const) };
  });
}
