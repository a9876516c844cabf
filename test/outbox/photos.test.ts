import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import { getPet } from '../../electron/desk/mirror';
import {
  deskOnlyPhotosOf,
  deskPhoto,
  deskPhotoRef,
  keepTakenPhoto,
  LocalWriteError,
  serverTakesLinksOnly,
  UNSAVED_PHOTO_KEPT_MS,
} from '../../electron/desk/outbox';
import { processPhoto } from '../../electron/platform/photo-image';
import { phoneJpegWithGps } from '../photo-fixtures';
import { outboxDeskForEachTest, petFields, testClient } from './helpers';

const desk = outboxDeskForEachTest();

function serverRows(sql: string): Array<Record<string, unknown>> {
  const db = new Database(`${desk.server.dataDir}/server.sqlite`, { readonly: true });
  try {
    return db.prepare(sql).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

async function takePhoto(takenAt = Date.now(), width = 1000): Promise<string> {
  const photo = await processPhoto(await phoneJpegWithGps(width, 700));
  const kept = desk.mirror.db.transaction(() => keepTakenPhoto(desk.mirror.db, photo, takenAt))();
  return deskPhotoRef(kept.local_id);
}

describe('photos taken at the desk go through the outbox', () => {
  it('offline: the pet waits for its photo; online: the photo goes first, once, and the pet names its address', async () => {
    const ref = await takePhoto();
    const created = desk.outbox.createPet(petFields({ name: 'Pixel', image_urls: [ref] }));
    if (created.status !== 'queued') throw new Error('not queued');
    expect(getPet(desk.mirror.db, created.entityId)?.record.image_urls).toEqual([ref]);

    const offline = testClient('http://127.0.0.1:9');
    const failed = await desk.outbox.replay(offline);
    await offline.close();
    expect(failed.unreachable).toBe(true);
    expect(serverRows('SELECT sha256 FROM photos')).toHaveLength(0);
    expect(serverRows(`SELECT id FROM pets WHERE name = 'Pixel'`)).toHaveLength(0);

    const replay = await desk.outbox.replay(desk.client);
    expect(replay.failed).toBe(0);
    const photos = serverRows('SELECT sha256 FROM photos');
    expect(photos).toHaveLength(1);
    const [pet] = serverRows(`SELECT id, image_urls FROM pets WHERE name = 'Pixel'`);
    const url = `${desk.server.apiUrl}/photos/${photos[0]?.sha256}.jpg`;
    expect(JSON.parse(String(pet?.image_urls))).toEqual([url]);
    expect(getPet(desk.mirror.db, String(pet?.id))?.record.image_urls).toEqual([url]);
    expect((await fetch(url)).status).toBe(200);

    const again = await desk.outbox.replay(desk.client);
    expect(again.sent).toBe(0);
    expect(serverRows('SELECT sha256 FROM photos')).toHaveLength(1);
    // The pet names the server's address now: the desk's copy is dropped (the photo cache keeps the bytes).
    expect(desk.mirror.db.prepare('SELECT COUNT(*) FROM desk_photo').pluck().get()).toBe(0);
  });

  it('an upload repeated after a crash (sent, answer lost) stores the photo once', async () => {
    const ref = await takePhoto();
    const localId = ref.slice('desk-photo:'.length);
    desk.outbox.createPet(petFields({ name: 'Crumb', image_urls: [ref] }));
    const photo = deskPhoto(desk.mirror.db, localId);
    if (!photo) throw new Error('no photo');
    // The request left and the server stored it; the desk died before it recorded the answer.
    const first = await desk.client.send({
      method: 'POST',
      path: '/api/photos',
      body: photo.bytes,
      contentType: 'image/jpeg',
      idempotencyKey: photo.idempotency_key,
    });
    expect(first.status).toBe(200);
    await desk.outbox.replay(desk.client);
    expect(serverRows('SELECT sha256 FROM photos')).toHaveLength(1);
    const [pet] = serverRows(`SELECT image_urls FROM pets WHERE name = 'Crumb'`);
    expect(JSON.parse(String(pet?.image_urls))).toEqual([(first.body as { url: string }).url]);
  });

  it('a server without the photo extension gets the pet without the photo; the desk keeps it for the pet', async () => {
    const ref = await takePhoto();
    const linksOnly: ApiClient = {
      ...desk.client,
      send: async (request) =>
        request.path === '/api/photos'
          ? { status: 404, headers: {}, body: undefined, requestId: undefined, replay: false }
          : desk.client.send(request),
    };
    desk.outbox.createPet(petFields({ name: 'Hosted', image_urls: ['https://example.org/a.jpg', ref] }));
    await desk.outbox.replay(linksOnly);
    const [pet] = serverRows(`SELECT id, image_urls FROM pets WHERE name = 'Hosted'`);
    expect(JSON.parse(String(pet?.image_urls))).toEqual(['https://example.org/a.jpg']);
    expect(serverTakesLinksOnly(desk.mirror.db)).toBe(true);
    expect(
      deskOnlyPhotosOf(desk.mirror.db, String(pet?.id)).map((row) => deskPhotoRef(row.local_id)),
    ).toEqual([ref]);
  });

  it('a change naming a photo the desk no longer has is sent without it instead of waiting', async () => {
    const ref = await takePhoto();
    desk.outbox.createPet(petFields({ name: 'Lost Pic', image_urls: [ref] }));
    desk.mirror.db.prepare('DELETE FROM desk_photo').run();
    await desk.outbox.replay(desk.client);
    const [pet] = serverRows(`SELECT image_urls FROM pets WHERE name = 'Lost Pic'`);
    expect(JSON.parse(String(pet?.image_urls))).toEqual([]);
  });

  it('a form saved after its taken photo was swept says which photo is gone and what to do; nothing is queued', async () => {
    const gone = await takePhoto(Date.now() - UNSAVED_PHOTO_KEPT_MS - 60_000, 900);
    const kept = await takePhoto();
    // A send pass sweeps photos no change names once they are older than the form's grace.
    await desk.outbox.replay(desk.client);
    expect(deskPhoto(desk.mirror.db, gone.slice('desk-photo:'.length))).toBeUndefined();
    const before = desk.mirror.db.prepare('SELECT COUNT(*) FROM outbox').pluck().get();

    let refused: unknown;
    try {
      desk.outbox.createPet(
        petFields({ name: 'Late', image_urls: ['https://example.org/a.jpg', gone, kept] }),
      );
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(LocalWriteError);
    const error = (refused as LocalWriteError).toDeskError();
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(/^Photo 2 is no longer on this desk: a photo taken here is kept 7 days/);
    expect(error.message).toMatch(
      /Remove it with the bin, add it again \(take or choose the photo\), then save\./,
    );
    expect(error.fieldErrors).toEqual([{ field: 'image_urls', message: error.message }]);
    expect(desk.mirror.db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBe(before);

    const created = desk.outbox.createPet(petFields({ name: 'Late', image_urls: [kept] }));
    if (created.status !== 'queued') throw new Error('not queued');
    expect(() => desk.outbox.updatePet(created.entityId, { image_urls: [gone, kept, gone] })).toThrow(
      /^Photos 1 and 3 are no longer on this desk: .* Remove them with the bin, add them again/,
    );
    expect(getPet(desk.mirror.db, created.entityId)?.record.image_urls).toEqual([kept]);
  });
});
