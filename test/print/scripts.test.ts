import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeServerPage } from '../../electron/desk/mirror';
import { fontSegments, type PrintSettings, printCards, printContract } from '../../electron/desk/print';
import { makePerson, makePet } from '../sync/fixtures';
import { openPrintFixture, type PrintFixture } from './fixtures';
import { flat, pdfInfo, pdfText, renderPages, wordsOffPage } from './pdf-reader';

const IMAGES = path.resolve('test-results', 'print');
const NAMES = ['Zoë', 'Łukasz', 'Ми́ла', 'Ελένη', '李小龍', 'محمد'];
let fixture: PrintFixture;
let dir: string;

const settings: PrintSettings = {
  paper: 'a4',
  shelterName: 'Приют «Лапа» · 爪の家',
  today: '2026-11-24',
  loadPhoto: async () => undefined,
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-print-scripts-'));
  fixture = await openPrintFixture(dir);
});
afterAll(async () => {
  await fixture.mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('names in any script', () => {
  it('splits text into runs of the font that has each character, marks staying with their letter', () => {
    expect(fontSegments('Bruce 李小龍 Lee', 'bold')).toEqual([
      { font: 'Sans-Bold', text: 'Bruce ' },
      { font: 'Sans-CJK', text: '李小龍' },
      { font: 'Sans-Bold', text: ' Lee' },
    ]);
    // The oblique face has no Arabic: the upright face prints it inside italic text.
    expect(fontSegments('by محمد', 'italic')).toEqual([
      { font: 'Sans-Oblique', text: 'by ' },
      { font: 'Sans', text: 'محمد' },
    ]);
    expect(fontSegments('Ми́ла', 'regular')).toEqual([{ font: 'Sans', text: 'Ми́ла' }]);
    // A right-to-left name is a run of its own, so the comma after it stays on its left-to-right side.
    expect(fontSegments('Zoë, محمد علي, Ελένη', 'regular')).toEqual([
      { font: 'Sans', text: 'Zoë, ' },
      { font: 'Sans', text: 'محمد علي' },
      { font: 'Sans', text: ', Ελένη' },
    ]);
  });

  it('prints each name exactly on kennel cards and in a contract (read back with pdftotext)', async () => {
    const pets = NAMES.map((name, index) =>
      makePet({
        name,
        breed: ['Mixed'],
        description: `${name} — ${NAMES.join(', ')}`,
        custom_id: `S-${index}`,
      }),
    );
    storeServerPage(fixture.mirror.db, 'pet', pets, 'listed');
    const cards = await printCards(fixture.mirror.db, { petIds: pets.map((pet) => pet.id) }, settings);
    expect(pdfInfo(cards.pdf).pages).toBe(NAMES.length);
    const pages = pdfText(cards.pdf).split('\f');
    NAMES.forEach((name, index) => {
      const page = flat(pages[index] ?? '');
      expect(page).toContain(name);
      expect(page).toContain(settings.shelterName);
      expect(page).not.toContain('?');
    });
    expect(wordsOffPage(cards.pdf)).toEqual([]);

    const adopter = makePerson({
      name: 'Ελένη Παπαδοπούλου 李小龍',
      email: 'eleni@example.org',
      address: 'ул. Ми́ра 5, Москва',
    });
    storeServerPage(fixture.mirror.db, 'person', [adopter], 'listed');
    const contract = await printContract(
      fixture.mirror.db,
      { personId: adopter.id, petIds: pets.slice(0, 3).map((pet) => pet.id) },
      settings,
    );
    const text = flat(pdfText(contract.pdf));
    expect(text).toContain('Ελένη Παπαδοπούλου 李小龍');
    expect(text).toContain('ул. Ми́ра 5, Москва');
    for (const name of NAMES.slice(0, 3)) expect(text).toContain(name);
    expect(wordsOffPage(contract.pdf)).toEqual([]);
    // The embedded fonts are subsets: six cards stay small.
    expect(cards.pdf.length).toBeLessThan(400 * 1024);
    renderPages(cards.pdf, IMAGES, 'scripts-cards', 50);
    renderPages(contract.pdf, IMAGES, 'scripts-contract', 50);
  });
});
