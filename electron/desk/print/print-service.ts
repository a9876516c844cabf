import type { Pet } from '../../../shared/contract';
import { asciiWords } from '../../../shared/wording/ascii-words';
import {
  getAdoptionFees,
  getCustomFields,
  getPet,
  listPets,
  type MirrorDb,
  type MirrorRecord,
  type PetQuery,
  statement,
} from '../mirror';
import { explainFee } from './fee';
import { drawKennelCard, type KennelCard } from './kennel-card';
import { createDocument, type Paper } from './pdf-document';
import { firstPrintablePhoto, type LoadPhoto } from './photo';
import { publicPageAddress } from './public-page';
import { localToday } from './words';

/** A failure the person printing can act on; `toDeskError` lets the bridge pass it on with its code. */
export class PrintError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_input' | 'not_synced',
    message: string,
  ) {
    super(message);
    this.name = 'PrintError';
  }
  toDeskError() {
    return { code: this.code, message: this.message };
  }
}

export interface PrintSettings {
  paper: Paper;
  loadPhoto: LoadPhoto;
  /** The photos of a pet kept on this desk only (a server that takes photo links only): tried after its own. */
  deskPhotos?: (petId: string) => string[];
  shelterName: string;
  /** The shelter's currency (ISO 4217) for fees; default US dollars. */
  currency?: string;
  /** Calendar date printed on the page (default: this computer's today). */
  today?: string;
}

export interface PrintedPdf {
  filename: string;
  pdf: Buffer;
  pages: number;
}

/** The most cards one batch prints: a filter that matches more is refused with a hint to narrow it. */
export const MAX_BATCH_CARDS = 500;

/** A file-name-safe form of a name (ASCII letters and digits, dashes). */
export function slug(text: string): string {
  return asciiWords(text, '-').slice(0, 60) || 'record';
}

/** A pet on this desk by id, local id or `custom_id` (the shelter's own id, as staff type it). */
export function findPet(db: MirrorDb, wanted: string): MirrorRecord<Pet> {
  const key = wanted.trim();
  const byId = getPet(db, key);
  if (byId) return byId;
  const rows = statement(
    db,
    `SELECT id FROM pet WHERE custom_id = ? COLLATE NOCASE AND presence != 'removed' ORDER BY seq LIMIT 2`,
  ).all(key) as { id: string }[];
  if (rows.length > 1) {
    throw new PrintError(
      'invalid_input',
      `More than one pet has the shelter id "${key}"; use the pet's id instead.`,
    );
  }
  const found = rows[0] && getPet(db, rows[0].id);
  if (!found) {
    throw new PrintError(
      'not_found',
      `No pet with id or shelter id "${key}" is on this desk. Check the id, or sync first.`,
    );
  }
  return found;
}

async function cardFor(
  db: MirrorDb,
  entry: MirrorRecord<Pet>,
  settings: PrintSettings,
  today: string,
): Promise<KennelCard> {
  const pet = entry.record;
  const urls = [
    ...(pet.image_urls.length > 0 ? pet.image_urls : pet.image_url ? [pet.image_url] : []),
    ...(settings.deskPhotos?.(pet.id) ?? []),
  ];
  return {
    pet,
    fee: explainFee(pet, getAdoptionFees(db).fees, settings.currency),
    photo: await firstPrintablePhoto(urls, settings.loadPhoto),
    publicPage: publicPageAddress(pet, getCustomFields(db, 'pet').fields, entry.presence),
    shelterName: settings.shelterName,
    printedOn: today,
  };
}

async function renderCards(
  db: MirrorDb,
  pets: MirrorRecord<Pet>[],
  settings: PrintSettings,
  title: string,
): Promise<Buffer> {
  const today = settings.today ?? localToday();
  const { doc, done } = await createDocument(settings.paper, title);
  // Photos load a few at a time (each bounded by the loader's own deadline); pages are drawn in order.
  const cards: KennelCard[] = new Array(pets.length);
  let next = 0;
  const worker = async () => {
    while (next < pets.length) {
      const index = next++;
      cards[index] = await cardFor(db, pets[index] as MirrorRecord<Pet>, settings, today);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, pets.length) }, worker));
  for (const card of cards) drawKennelCard(doc, card, settings.paper);
  doc.end();
  return done;
}

/** One pet's kennel card: one page. */
export async function printKennelCard(
  db: MirrorDb,
  petId: string,
  settings: PrintSettings,
): Promise<PrintedPdf> {
  const entry = findPet(db, petId);
  const pet = entry.record;
  const pdf = await renderCards(db, [entry], settings, `Kennel card: ${pet.name}`);
  const shelterId = pet.custom_id?.trim();
  return {
    filename: `kennel-card-${slug(pet.name)}${shelterId ? `-${slug(shelterId)}` : ''}.pdf`,
    pdf,
    pages: 1,
  };
}

/** What an event batch prints: chosen pets (in the order given), or every pet matching a Pets-list filter. */
export type CardSelection = { petIds: readonly string[] } | { filter: Omit<PetQuery, 'limit' | 'offset'> };

/** Kennel cards for an event: one page per pet, in one PDF. */
export async function printCards(
  db: MirrorDb,
  selection: CardSelection,
  settings: PrintSettings,
): Promise<PrintedPdf> {
  let pets: MirrorRecord<Pet>[];
  let name: string;
  if ('petIds' in selection) {
    if (selection.petIds.length > MAX_BATCH_CARDS) {
      throw new PrintError('invalid_input', `Choose at most ${MAX_BATCH_CARDS} pets for one batch.`);
    }
    pets = selection.petIds.map((id) => findPet(db, id));
    name = 'kennel-cards';
  } else {
    const first = listPets(db, { ...selection.filter, limit: MAX_BATCH_CARDS, offset: 0 });
    if (first.total > MAX_BATCH_CARDS) {
      throw new PrintError(
        'invalid_input',
        `${first.total} pets match; one batch prints at most ${MAX_BATCH_CARDS}. Narrow the filter (status, species, search).`,
      );
    }
    pets = first.items;
    const { status, species, search } = selection.filter;
    name = ['kennel-cards', status, species, search]
      .filter(Boolean)
      .map((part) => slug(String(part)))
      .join('-');
  }
  if (pets.length === 0) throw new PrintError('not_found', 'No pets match, so there are no cards to print.');
  const pdf = await renderCards(db, pets, settings, `Kennel cards (${pets.length})`);
  return { filename: `${name}.pdf`, pdf, pages: pets.length };
}
