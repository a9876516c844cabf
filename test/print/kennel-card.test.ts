import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markPresence, storeServerPage } from '../../electron/desk/mirror';
import { PAPER_SIZES, type PrintSettings, printCards, printKennelCard } from '../../electron/desk/print';
import { makePet } from '../sync/fixtures';
import { fixturePhoto, openPrintFixture, type PrintFixture } from './fixtures';
import { flat, pdfInfo, pdfText, renderPages, wordsOffPage } from './pdf-reader';

const IMAGES = path.resolve('test-results', 'print');
let fixture: PrintFixture;
let dir: string;
const photo = fixturePhoto();
const loaded: string[] = [];

function settings(paper: 'a4' | 'letter'): PrintSettings {
  return {
    paper,
    shelterName: 'Riverbend Animal Rescue',
    today: '2026-11-24',
    loadPhoto: async (url) => {
      loaded.push(url);
      return url.endsWith('bella.png') ? photo : undefined;
    },
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-print-'));
  fixture = await openPrintFixture(dir);
});
afterAll(async () => {
  await fixture.mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kennel card', () => {
  for (const paper of ['a4', 'letter'] as const) {
    it(`prints every field of a full pet on one ${paper} page, nothing off the edge`, async () => {
      const card = await printKennelCard(fixture.mirror.db, fixture.full.id, settings(paper));
      const info = pdfInfo(card.pdf);
      expect(info.pages).toBe(1);
      expect(info.sizes[0]?.width).toBeCloseTo(PAPER_SIZES[paper].width, 0);
      expect(info.sizes[0]?.height).toBeCloseTo(PAPER_SIZES[paper].height, 0);
      const text = flat(pdfText(card.pdf));
      for (const expected of [
        'Bella Maria Esperanza of the Riverbend Kennels',
        'Riverbend Animal Rescue',
        'Bernese Mountain Dog / Great Pyrenees',
        'Female',
        '9 years 4 months · Senior',
        'Extra large',
        'tricolour, white, rust',
        '48 kg',
        'Yes (spayed)',
        '985112003456789',
        '1 Mar 2026',
        'RAR-000199',
        'Gentle, Loyal, Quiet',
        'Kids, Dogs, Seniors',
        'Cats',
        'Daily joint supplement',
        '$75.00',
        'Fee rules: Dog base fee $175.00, Senior -$100.00 = $75.00',
        'She greets everyone at the gate',
      ]) {
        expect(text).toContain(expected);
      }
      // The QR code's address, printed under it (wrapped to the code's width).
      expect(text.replace(/\s/g, '')).toContain('MEETMEONLINEriverbend-rescue.example/adopt/bella');
      // The description is 40 sentences long: the card ends it with an ellipsis rather than a second page.
      expect(text).toMatch(/…|\.\.\./);
      expect(wordsOffPage(card.pdf)).toEqual([]);
      expect(renderPages(card.pdf, IMAGES, `card-full-${paper}`).length).toBe(1);
    });
  }

  it('finds the pet by the shelter id, shows a fee set on the pet, a placeholder photo and no QR code', async () => {
    const card = await printKennelCard(fixture.mirror.db, 'rar-000002', settings('a4'));
    const text = flat(pdfText(card.pdf));
    expect(text).toContain('Tom');
    expect(text).toContain('$60.00');
    expect(text).toContain('Set for this pet');
    expect(text).toContain('Photo not available');
    expect(text).not.toContain('riverbend-rescue.example');
    expect(card.filename).toBe('kennel-card-tom-rar-000002.pdf');
    expect(wordsOffPage(card.pdf)).toEqual([]);
    renderPages(card.pdf, IMAGES, 'card-plain-a4');
  });

  it('says a pet has no shelter id yet rather than print its record UUID, on the card and in the file name', async () => {
    const pet = makePet({ name: 'Pumpkin Spice', custom_id: null });
    storeServerPage(fixture.mirror.db, 'pet', [pet], 'listed');
    const card = await printKennelCard(fixture.mirror.db, pet.id, settings('a4'));
    // Out of the other cases' filters.
    markPresence(fixture.mirror.db, 'pet', pet.id, 'removed');
    const text = flat(pdfText(card.pdf));
    expect(text).toMatch(/Shelter id\s+None given yet/);
    // Every fact the record does not hold is said the same way.
    for (const label of ['Microchip', 'SPECIAL NEEDS']) {
      expect(text).toMatch(new RegExp(`${label}\\s+Not recorded`));
    }
    expect(text).not.toMatch(/None recorded|Nothing recorded/);
    expect(text).not.toContain(pet.id);
    expect(text.replace(/\s/g, '')).not.toContain(pet.id.slice(0, 8));
    expect(card.filename).toBe('kennel-card-pumpkin-spice.pdf');
  });

  it('prints the fee in the shelter’s currency', async () => {
    const card = await printKennelCard(fixture.mirror.db, fixture.full.id, {
      ...settings('a4'),
      currency: 'EUR',
    });
    const text = flat(pdfText(card.pdf));
    expect(text).toContain('Fee rules: Dog base fee €175.00, Senior -€100.00 = €75.00');
    expect(text).not.toContain('$');
    const plain = flat(
      pdfText(
        (await printKennelCard(fixture.mirror.db, 'rar-000002', { ...settings('a4'), currency: 'GBP' })).pdf,
      ),
    );
    expect(plain).toContain('£60.00');
  });

  it('prints no QR code for a pet the public cannot see, even with a page address', async () => {
    const { storeServerPage } = await import('../../electron/desk/mirror');
    storeServerPage(fixture.mirror.db, 'pet', [{ ...fixture.full, show_public: false }], 'fetched-unlisted');
    try {
      const text = flat(
        pdfText((await printKennelCard(fixture.mirror.db, fixture.full.id, settings('a4'))).pdf),
      );
      expect(text).toContain('Bella');
      expect(text).not.toContain('MEET ME ONLINE');
    } finally {
      storeServerPage(fixture.mirror.db, 'pet', [fixture.full], 'listed');
    }
  });

  it('says what to do when the pet is not on this desk', async () => {
    await expect(printKennelCard(fixture.mirror.db, 'RAR-999999', settings('a4'))).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('sync first'),
    });
  });
});

describe('cards for an event', () => {
  it('prints one page per pet a filter matches, in one PDF', async () => {
    const batch = await printCards(fixture.mirror.db, { filter: { species: 'dog' } }, settings('letter'));
    const info = pdfInfo(batch.pdf);
    expect(info.pages).toBe(2);
    expect(
      info.sizes.every((size) => Math.round(size.width) === 612 && Math.round(size.height) === 792),
    ).toBe(true);
    const text = pdfText(batch.pdf);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages).toHaveLength(2);
    expect(flat(pages.join(' '))).toContain('Bella Maria');
    expect(flat(pages.join(' '))).toContain('Rex');
    expect(wordsOffPage(batch.pdf)).toEqual([]);
    renderPages(batch.pdf, IMAGES, 'cards-batch-letter');
  });

  it('prints chosen pets in the order given', async () => {
    const batch = await printCards(
      fixture.mirror.db,
      { petIds: ['RAR-000002', fixture.full.id] },
      settings('a4'),
    );
    const pages = pdfText(batch.pdf).split('\f');
    expect(pages[0]).toContain('Tom');
    expect(flat(pages[1] ?? '')).toContain('Bella Maria');
  });

  it('refuses a filter that matches nothing, with the reason', async () => {
    await expect(
      printCards(fixture.mirror.db, { filter: { species: 'rabbit' } }, settings('a4')),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
