import { randomUUID } from 'node:crypto';
import { errorBodySchema, photoUploadResponseSchema } from '../../../shared/contract';
import { listInWords } from '../../../shared/wording/lists';
import type { ProcessedPhoto } from '../../platform/photo-image';
import { type ApiClient, ApiError } from '../client';
import { LOCAL_ID_PREFIX, type MirrorDb, statement } from '../mirror';
import { entryRefs, type OutboxRow } from './outbox-store';
import { LocalWriteError } from './values';

/**
 * Photos taken at this desk. A photo is kept in the mirror (its processed bytes, safe to publish) and named in a
 * pet's `image_urls` by a desk reference, `desk-photo:local-<uuid>`, until the server has it. The local id in the
 * reference makes every outbox entry that names the photo wait (`refs_json`), as an entry naming a pet created
 * offline waits for that pet: the upload goes first, then the write with the server's address in place of the
 * reference. Only photos some queued change names are uploaded; one taken and never saved stays on the desk.
 */
export const DESK_PHOTO_SCHEME = 'desk-photo:';

export type DeskPhotoState = 'pending' | 'sent' | 'links-only';

export interface DeskPhotoRow {
  local_id: string;
  sha256: string;
  bytes: Buffer;
  width: number;
  height: number;
  state: DeskPhotoState;
  server_url: string | null;
  idempotency_key: string;
  pet_id: string | null;
  created_ms: number;
  first_sent_ms: number | null;
  last_error: string | null;
}

/** The reference a pet's `image_urls` holds for a photo not on the server yet. */
export function deskPhotoRef(localId: string): string {
  return `${DESK_PHOTO_SCHEME}${localId}`;
}

/** The local id of a desk reference, or undefined when the address is not one. */
export function deskPhotoLocalId(url: string): string | undefined {
  return url.startsWith(DESK_PHOTO_SCHEME) ? url.slice(DESK_PHOTO_SCHEME.length) : undefined;
}

/** Keeps a processed photo on the desk (one transaction) and returns its reference for `image_urls`. */
export function keepTakenPhoto(db: MirrorDb, photo: ProcessedPhoto, now: number): DeskPhotoRow {
  const localId = `${LOCAL_ID_PREFIX}${randomUUID()}`;
  statement(
    db,
    `INSERT INTO desk_photo (local_id, sha256, bytes, width, height, state, idempotency_key, created_ms)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(localId, photo.sha256, photo.bytes, photo.width, photo.height, randomUUID(), now);
  return deskPhoto(db, localId) as DeskPhotoRow;
}

export function deskPhoto(db: MirrorDb, localId: string): DeskPhotoRow | undefined {
  return statement(db, 'SELECT * FROM desk_photo WHERE local_id = ?').get(localId) as
    | DeskPhotoRow
    | undefined;
}

/** The photos kept on this desk only (the server takes links only) for a pet: they still show and print here. */
export function deskOnlyPhotosOf(db: MirrorDb, petId: string): DeskPhotoRow[] {
  return statement(
    db,
    `SELECT * FROM desk_photo WHERE state = 'links-only' AND pet_id = ? ORDER BY created_ms`,
  ).all(petId) as DeskPhotoRow[];
}

/** Whether this connection's server said it takes photo links only (the last upload tried found no extension). */
export function serverTakesLinksOnly(db: MirrorDb): boolean {
  const row = statement(
    db,
    `SELECT state FROM desk_photo WHERE state != 'pending' ORDER BY first_sent_ms DESC LIMIT 1`,
  ).get() as { state: DeskPhotoState } | undefined;
  return row?.state === 'links-only';
}

/** Pending photos that a queued change names: the ones to upload now, oldest first. */
function photosToUpload(db: MirrorDb): DeskPhotoRow[] {
  return statement(
    db,
    `SELECT p.* FROM desk_photo p WHERE p.state = 'pending'
       AND EXISTS (SELECT 1 FROM outbox o WHERE o.refs_json LIKE '%' || p.local_id || '%')
     ORDER BY p.created_ms`,
  ).all() as DeskPhotoRow[];
}

/** The entries that name a photo's reference. */
function entriesNaming(db: MirrorDb, localId: string): OutboxRow[] {
  return statement(db, 'SELECT * FROM outbox WHERE refs_json LIKE ?').all(`%${localId}%`) as OutboxRow[];
}

/** Puts `replacement` (an address, or nothing) where an `image_urls` list names the reference. */
function replaceInImageUrls(json: string, ref: string, replacement: string | undefined): string {
  const value = JSON.parse(json) as Record<string, unknown>;
  if (Array.isArray(value.image_urls)) {
    value.image_urls = value.image_urls.flatMap((url) =>
      url === ref ? (replacement === undefined ? [] : [replacement]) : [url],
    );
  }
  return JSON.stringify(value);
}

/**
 * After the server answered the upload (or said it has no photo extension): every entry naming the reference now
 * names the server's address (or no longer names the photo) and stops waiting for it. One transaction.
 */
function settlePhoto(db: MirrorDb, photo: DeskPhotoRow, serverUrl: string | undefined): void {
  const ref = deskPhotoRef(photo.local_id);
  db.transaction(() => {
    let petId: string | null = null;
    for (const row of entriesNaming(db, photo.local_id)) {
      if (row.entity_type === 'pet') petId ??= row.entity_id;
      const refs = entryRefs(row).filter((id) => id !== photo.local_id);
      statement(db, 'UPDATE outbox SET body = ?, fields_json = ?, refs_json = ? WHERE id = ?').run(
        replaceInImageUrls(row.body, ref, serverUrl),
        replaceInImageUrls(row.fields_json, ref, serverUrl),
        JSON.stringify(refs),
        row.id,
      );
    }
    statement(
      db,
      `UPDATE desk_photo SET state = ?, server_url = ?, pet_id = COALESCE(?, pet_id), last_error = NULL
       WHERE local_id = ?`,
    ).run(serverUrl === undefined ? 'links-only' : 'sent', serverUrl ?? null, petId, photo.local_id);
  })();
}

/** How long a photo taken and never saved with a pet is kept (a form left open over a weekend still works). */
export const UNSAVED_PHOTO_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Refuses a pet write whose `image_urls` name a photo taken here that is no longer on this desk (a form left open
 * with it for longer than UNSAVED_PHOTO_KEPT_MS: `pruneDeskPhotos` dropped it). Saving would otherwise go on
 * without it and say nothing; the message names each such photo by its place in the form and says what to do.
 * @throws LocalWriteError invalid_input with the message on `image_urls`.
 */
export function requireKeptPhotos(db: MirrorDb, imageUrls: unknown): void {
  if (!Array.isArray(imageUrls)) return;
  const gone: number[] = [];
  imageUrls.forEach((url, index) => {
    const localId = typeof url === 'string' ? deskPhotoLocalId(url) : undefined;
    if (localId !== undefined && deskPhoto(db, localId) === undefined) gone.push(index + 1);
  });
  if (gone.length === 0) return;
  const days = Math.round(UNSAVED_PHOTO_KEPT_MS / (24 * 60 * 60 * 1000));
  // The form labels the first photo "Main photo" and the others "Photo N".
  const which =
    gone.length === 1
      ? gone[0] === 1
        ? 'The main photo (photo 1) is'
        : `Photo ${gone[0]} is`
      : `Photos ${listInWords(gone.map(String))} are`;
  const them = gone.length === 1 ? 'it' : 'them';
  const message =
    `${which} no longer on this desk: a photo taken here is kept ${days} days for a form that is not saved, and ` +
    `this form was open longer. Remove ${them} with the bin, add ${them} again (take or choose the photo), then save.`;
  throw new LocalWriteError('invalid_input', message, [{ field: 'image_urls', message }]);
}

/**
 * Drops the photos nothing on this desk names any more: one the server has (its bytes stay in the photo cache under
 * the server's address) once the writes naming it were accepted, and one taken but never saved with a pet after
 * UNSAVED_PHOTO_KEPT_MS. A photo the server could not take stays: it is the only copy. Returns how many went.
 */
export function pruneDeskPhotos(db: MirrorDb, now: number): number {
  return statement(
    db,
    `DELETE FROM desk_photo
     WHERE (state = 'sent' OR (state = 'pending' AND created_ms < ?))
       AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.body LIKE '%' || desk_photo.local_id || '%')
       AND NOT EXISTS (SELECT 1 FROM local_edit e WHERE e.fields_json LIKE '%' || desk_photo.local_id || '%')`,
  ).run(now - UNSAVED_PHOTO_KEPT_MS).changes;
}

/**
 * Changes that name a photo this desk no longer has (its row is gone) would wait for ever: they go without it.
 * Returns how many changes were freed.
 */
export function dropMissingPhotoRefs(db: MirrorDb): number {
  let freed = 0;
  const rows = statement(
    db,
    `SELECT * FROM outbox WHERE body LIKE '%${DESK_PHOTO_SCHEME}%'`,
  ).all() as OutboxRow[];
  for (const row of rows) {
    const missing = entryRefs(row).filter(
      (id) => row.body.includes(deskPhotoRef(id)) && deskPhoto(db, id) === undefined,
    );
    if (missing.length === 0) continue;
    let body = row.body;
    let fields = row.fields_json;
    for (const id of missing) {
      body = replaceInImageUrls(body, deskPhotoRef(id), undefined);
      fields = replaceInImageUrls(fields, deskPhotoRef(id), undefined);
    }
    const refs = entryRefs(row).filter((id) => !missing.includes(id));
    statement(db, 'UPDATE outbox SET body = ?, fields_json = ?, refs_json = ? WHERE id = ?').run(
      body,
      fields,
      JSON.stringify(refs),
      row.id,
    );
    freed += 1;
  }
  return freed;
}

export interface PhotoSendResult {
  sent: number;
  /** Set when the server could not be reached or refused the key: the pass stops as for any other write. */
  stop: ApiError | undefined;
}

/**
 * Uploads every photo a queued change names, before those changes go, each once: the attempt is committed before
 * the request leaves and the request carries the photo's own Idempotency-Key, and the server stores photos by their
 * content, so an upload repeated after a crash stores nothing twice. A server without the photo extension (404 or
 * 405: the hosted service) keeps the photo on this desk and the changes go without it. Told `onSent(url, photo)` so
 * the desk's photo cache holds the bytes under the server's address (they show and print offline at once).
 */
export async function sendPendingPhotos(options: {
  db: MirrorDb;
  client: ApiClient;
  now: () => number;
  signal?: AbortSignal | undefined;
  onSent?: (url: string, photo: DeskPhotoRow) => void;
}): Promise<PhotoSendResult> {
  const { db } = options;
  db.transaction(() => {
    pruneDeskPhotos(db, options.now());
    dropMissingPhotoRefs(db);
  })();
  let sent = 0;
  for (const photo of photosToUpload(db)) {
    statement(db, 'UPDATE desk_photo SET first_sent_ms = COALESCE(first_sent_ms, ?) WHERE local_id = ?').run(
      options.now(),
      photo.local_id,
    );
    let response: Awaited<ReturnType<ApiClient['send']>>;
    try {
      response = await options.client.send({
        method: 'POST',
        path: '/api/photos',
        body: photo.bytes,
        contentType: 'image/jpeg',
        idempotencyKey: photo.idempotency_key,
        ...(options.signal && { signal: options.signal }),
      });
    } catch (error) {
      if (error instanceof ApiError) return { sent, stop: error };
      throw error;
    }
    if (response.status === 404 || response.status === 405) {
      settlePhoto(db, photo, undefined);
      continue;
    }
    const answer = photoUploadResponseSchema.safeParse(response.body);
    if (response.status === 200 && answer.success) {
      settlePhoto(db, photo, answer.data.url);
      options.onSent?.(answer.data.url, photo);
      sent += 1;
      continue;
    }
    // Refused (a server-side limit or a damaged copy): the changes naming it wait, and the desk says why.
    const error = errorBodySchema.safeParse(response.body);
    statement(db, 'UPDATE desk_photo SET last_error = ? WHERE local_id = ?').run(
      error.success ? error.data.error : `The server answered ${response.status} to the photo upload.`,
      photo.local_id,
    );
  }
  return { sent, stop: undefined };
}
