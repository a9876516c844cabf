import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DeskCallError } from '../../../shared/desk-api';
import {
  PHOTO_CHUNK_BYTES,
  PHOTO_FILE_MAX_BYTES,
  photoTooLargeMessage,
} from '../../../shared/desk-api/photos';
import type { DeskCore } from '../../desk/api';
import { asChoice, CliUsageError } from '../args';
import { requireMirror, withDeskCore } from './cli-context';
import type { CliIo } from './command';
import type { WriteCall } from './write-command';

const HINT = 'See: npm run cli -- pet --help';

/** A pet by id, local id or shelter id (`custom_id`, any case), with its current photo list. */
async function findPet(core: DeskCore, wanted: string): Promise<{ id: string; imageUrls: string[] }> {
  try {
    const pet = await core.registry.invoke('mirror.pets.get', { id: wanted });
    return { id: pet.record.id, imageUrls: pet.record.image_urls };
  } catch (error) {
    if (!(error instanceof DeskCallError) || error.code !== 'not_found') throw error;
  }
  const page = await core.registry.invoke('mirror.pets.list', { search: wanted, limit: 20 });
  const matches = page.items.filter((pet) => pet.record.custom_id?.toLowerCase() === wanted.toLowerCase());
  const found = matches[0];
  if (!found || matches.length > 1) {
    throw new CliUsageError(
      matches.length > 1
        ? `More than one pet has the shelter id "${wanted}"; use the pet's id instead.`
        : `No pet with id or shelter id "${wanted}" is on this desk. Check the id, or sync first.`,
      HINT,
    );
  }
  return { id: found.record.id, imageUrls: found.record.image_urls };
}

/** Hands one file to the core as the window does (in pieces) and returns the photo's reference. */
async function takeFile(core: DeskCore, file: string): Promise<string> {
  let bytes: Buffer;
  try {
    const size = fs.statSync(file).size;
    if (size > PHOTO_FILE_MAX_BYTES) {
      throw new CliUsageError(photoTooLargeMessage(size, file), HINT);
    }
    bytes = fs.readFileSync(file);
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(`Cannot read ${file}: ${(error as Error).message}`, HINT);
  }
  const uploadId = randomUUID();
  let pieces = 0;
  for (let at = 0; at < bytes.length || pieces === 0; at += PHOTO_CHUNK_BYTES) {
    const data = bytes.subarray(at, at + PHOTO_CHUNK_BYTES).toString('base64');
    await core.registry.invoke('photos.chunk', { uploadId, index: pieces, data });
    pieces += 1;
  }
  try {
    return (await core.registry.invoke('photos.take', { uploadId, pieces })).ref;
  } catch (error) {
    if (error instanceof DeskCallError && error.code === 'invalid_input') {
      throw new CliUsageError(`${path.basename(file)}: ${error.message}`, HINT);
    }
    throw error;
  }
}

/** Which photos `pet photo remove` names: 1-based positions or addresses. */
function remaining(urls: string[], which: string[]): string[] {
  const drop = new Set<number>();
  for (const item of which) {
    const position = /^\d+$/.test(item) ? Number(item) : urls.indexOf(item) + 1;
    if (position < 1 || position > urls.length) {
      throw new CliUsageError(
        `The pet has no photo "${item}"; name photos by position (1 is the main photo, ${urls.length} in all) or address.`,
        HINT,
      );
    }
    drop.add(position - 1);
  }
  return urls.filter((_, index) => !drop.has(index));
}

/**
 * `pet photo add <pet> FILE…` and `pet photo remove <pet> <position | address>…`: every file made safe to publish
 * and kept on this desk, the pet's photo list changed as one local write (sent, photos first, by the next sync).
 */
export async function runPetPhoto(call: WriteCall, io: CliIo): Promise<number> {
  const [, typedAction, pet, ...rest] = call.words;
  const action = asChoice(typedAction);
  if ((action !== 'add' && action !== 'remove') || !pet || rest.length === 0) {
    throw new CliUsageError(
      'Use: pet photo add <id | custom_id> FILE… or pet photo remove <id | custom_id> <position | address>…',
      call.hint,
    );
  }
  await requireMirror(call.dataDir);
  return withDeskCore(call.dataDir, { integrityCheck: 'marker' }, async (core) => {
    const found = await findPet(core, pet);
    let urls: string[];
    if (action === 'add') {
      const refs: string[] = [];
      for (const file of rest) refs.push(await takeFile(core, file));
      urls = [...found.imageUrls, ...refs];
    } else {
      urls = remaining(found.imageUrls, rest);
    }
    const result = await core.registry.invoke('outbox.updatePet', {
      id: found.id,
      fields: { image_urls: urls },
      force: true,
    });
    io.stdout(`${JSON.stringify({ id: found.id, image_urls: urls })}\n`);
    io.stderr(
      result.status === 'queued'
        ? `Photos of ${found.id} saved on this desk; they are sent by the next sync (npm run cli -- sync --once).\n`
        : 'Not saved.\n',
    );
    return result.status === 'queued' ? 0 : 1;
  });
}
