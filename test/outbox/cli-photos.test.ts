import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { phoneJpegWithGps } from '../photo-fixtures';
import { cliDeskForFile, petFields, WRITE_KEY } from './helpers';

const desk = cliDeskForFile('outbox-cli-photos-');
const { folder, cli } = desk;

describe('npm run cli -- pet photo', () => {
  it('adds photo files to a pet by shelter id, sends them before the pet, removes one; refuses a text file', async () => {
    const phone = path.join(folder.dir, 'phone.jpg');
    fs.writeFileSync(phone, await phoneJpegWithGps());
    const text = path.join(folder.dir, 'notes.jpg');
    fs.writeFileSync(text, 'not a photo\n');

    const created = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(petFields({ name: 'Snap', custom_id: 'PHO-1' })),
    ]);
    expect(created.code, created.stderr).toBe(0);

    const refused = await cli(['pet', 'photo', 'add', 'pho-1', text]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/notes\.jpg: The file is not an image/);

    const added = await cli(['pet', 'photo', 'add', 'pho-1', phone, phone]);
    expect(added.code, added.stderr).toBe(0);
    const photos = JSON.parse(added.stdout) as { image_urls: string[] };
    expect(photos.image_urls).toHaveLength(2);
    expect(photos.image_urls[0]).toMatch(/^desk-photo:local-/);

    const synced = await cli(['sync', '--remote', desk.server.origin, '--key', WRITE_KEY, '--once']);
    expect(synced.code, synced.stderr).toBe(0);
    const db = new Database(path.join(desk.server.dataDir, 'server.sqlite'), { readonly: true });
    const stored = db.prepare('SELECT sha256, bytes FROM photos').all() as Array<{
      sha256: string;
      bytes: Buffer;
    }>;
    const pet = db.prepare(`SELECT image_urls FROM pets WHERE custom_id = 'PHO-1'`).get() as {
      image_urls: string;
    };
    db.close();
    // The same file twice is one photo on the server, named twice.
    expect(stored).toHaveLength(1);
    const url = `${desk.server.apiUrl}/photos/${stored[0]?.sha256}.jpg`;
    expect(JSON.parse(pet.image_urls)).toEqual([url, url]);
    const metadata = await sharp(stored[0]?.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.height).toBe(1600);

    const removed = await cli(['pet', 'photo', 'remove', 'PHO-1', '2']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout).image_urls).toEqual([url]);
  });
});
