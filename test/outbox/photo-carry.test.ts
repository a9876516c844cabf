import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  carryUnconfigured,
  deskPhotoRef,
  keepTakenPhoto,
  Outbox,
  openDeskMirror,
} from '../../electron/desk/outbox';
import { processPhoto } from '../../electron/platform/photo-image';
import { phoneJpegWithGps } from '../photo-fixtures';
import { tempDir } from '../temp-mirror';
import { petFields, startServer, testClient } from './helpers';

const folders: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.remove();
});

describe('a photo taken with no connection', () => {
  it('goes with the intake to the connection the desk gets, and is uploaded there before the pet', async () => {
    const folder = tempDir('photo-carry-');
    folders.push(folder);
    const unconfigured = path.join(folder.dir, 'unconfigured');
    const target = path.join(folder.dir, 'remote-x');

    const before = await openDeskMirror({ dataDir: unconfigured });
    const photo = await processPhoto(await phoneJpegWithGps(900, 600));
    const kept = before.db.transaction(() => keepTakenPhoto(before.db, photo, Date.now()))();
    const outbox = new Outbox({ db: before.db });
    outbox.createPet(petFields({ name: 'Carried Cleo', image_urls: [deskPhotoRef(kept.local_id)] }));
    await outbox.close();
    await before.close();
    // The connection already has a mirror: rows are carried one by one.
    await (await openDeskMirror({ dataDir: target })).close();

    const result = await carryUnconfigured(unconfigured, target);
    expect(result.carried.desk_photo).toBe(1);

    const server = await startServer();
    const mirror = await openDeskMirror({ dataDir: target });
    const client = testClient(server.origin);
    try {
      const replaying = new Outbox({ db: mirror.db });
      await replaying.replay(client);
      await replaying.close();
      const db = new Database(path.join(server.dataDir, 'server.sqlite'), { readonly: true });
      const photos = db.prepare('SELECT sha256 FROM photos').all() as Array<{ sha256: string }>;
      const pet = db.prepare(`SELECT image_urls FROM pets WHERE name = 'Carried Cleo'`).get() as {
        image_urls: string;
      };
      db.close();
      expect(photos).toHaveLength(1);
      expect(JSON.parse(pet.image_urls)).toEqual([`${server.apiUrl}/photos/${photos[0]?.sha256}.jpg`]);
    } finally {
      await client.close();
      await mirror.close();
      await server.close();
    }
  });
});
