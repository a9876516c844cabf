import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement, storeMetadata, upsertApplication } from '../../electron/desk/mirror';
import { type PrintSettings, printContract } from '../../electron/desk/print';
import { ADOPTER_CONTRACT, openPrintFixture, type PrintFixture } from './fixtures';
import { flat, pageText, pdfInfo, pdfText, renderPages, wordsOffPage } from './pdf-reader';

const IMAGES = path.resolve('test-results', 'print');
let fixture: PrintFixture;
let dir: string;

const settings = (paper: 'a4' | 'letter' = 'a4'): PrintSettings => ({
  paper,
  shelterName: 'Riverbend Animal Rescue',
  today: '2026-11-24',
  loadPhoto: async () => undefined,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-contract-'));
  fixture = await openPrintFixture(dir);
});
afterAll(async () => {
  await fixture.mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An adopter contract of `count` numbered clauses, each a heading and a two-line paragraph. */
const clauses = (count: number) =>
  `# Adoption Agreement\n\n${Array.from(
    { length: count },
    (_, index) =>
      `## Clause ${index + 1}\n\nThe adopter agrees to provide food, water, shelter and veterinary care, and to keep the animal's identification current, for clause number ${index + 1}.`,
  ).join('\n\n')}\n`;

/** Runs `check` with `content` as the adopter contract, then puts the fixture's contract back. */
async function withAdopterContract(content: string, check: () => Promise<void>): Promise<void> {
  const store = (markdown: string) =>
    storeMetadata(
      fixture.mirror.db,
      'contract:adopter',
      { type: 'adopter', content: markdown, updated_at: null },
      'now',
    );
  store(content);
  try {
    await check();
  } finally {
    store(ADOPTER_CONTRACT);
  }
}

describe('contracts', () => {
  it('fills the adopter contract with the adopter, their adopted pet and its fee, the date and signature lines', async () => {
    const printed = await printContract(fixture.mirror.db, { personId: fixture.adopter.id }, settings());
    const info = pdfInfo(printed.pdf);
    expect(info.pages).toBe(1);
    expect(Math.round(info.sizes[0]?.width ?? 0)).toBe(595);
    const text = flat(pdfText(printed.pdf));
    for (const expected of [
      'Adoption Agreement',
      'Jordan Rivera',
      'jordan.rivera@example.com',
      '+1 555 0199',
      '41 Brook Lane, Riverbend',
      '24 Nov 2026',
      'Rex',
      'RAR-000003',
      '$175.00',
      'Fee rules: Dog base fee $175.00',
      'Total adoption fee: $175.00',
      'Provide the animal with adequate food',
      'return it to us',
      'Signature of the adopter',
      'For Riverbend Animal Rescue',
      'page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    // The contract's own title is printed once, as the title.
    expect(text.match(/Adoption Agreement/g)?.length).toBe(2); // title + footer
    expect(printed.filename).toBe('adoption-agreement-jordan-rivera.pdf');
    expect(wordsOffPage(printed.pdf)).toEqual([]);
    renderPages(printed.pdf, IMAGES, 'contract-adopter-a4');
  });

  it('names the pets chosen for a waiting application, each with its fee and rule, and the total', async () => {
    const printed = await printContract(
      fixture.mirror.db,
      { personId: fixture.adopter.id, petIds: [fixture.full.id, 'RAR-000002'] },
      settings('letter'),
    );
    const text = flat(pdfText(printed.pdf));
    expect(text).toContain('Bella Maria Esperanza');
    expect(text).toContain('$75.00');
    expect(text).toContain('Tom');
    expect(text).toContain('$60.00');
    expect(text).toContain('Total adoption fee: $135.00');
    expect(Math.round(pdfInfo(printed.pdf).sizes[0]?.height ?? 0)).toBe(792);
  });

  for (const kind of ['foster', 'volunteer', 'surrender'] as const) {
    it(`prints the ${kind} contract with the person's name and no fees`, async () => {
      const person = fixture[kind];
      const petIds = kind === 'volunteer' ? undefined : ['RAR-000002'];
      const printed = await printContract(fixture.mirror.db, { personId: person.id, petIds }, settings());
      const text = flat(pdfText(printed.pdf));
      expect(text).toContain(person.name);
      expect(text).toContain(`The ${kind} agrees to the terms`);
      expect(text).not.toContain('Total adoption fee');
      if (petIds) expect(text).toContain('Tom');
      expect(wordsOffPage(printed.pdf)).toEqual([]);
      renderPages(printed.pdf, IMAGES, `contract-${kind}-a4`);
    });
  }

  it("names the pets of a person's waiting application when none are chosen, as a draft", async () => {
    const { foster, full } = fixture;
    const application = {
      id: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738495',
      personId: foster.id,
      kind: 'foster',
      petIds: [full.id],
      submittedAt: '2026-06-02T09:30:00.000Z',
      status: 'submitted',
      decidedAt: null,
      source: 'sign-up' as const,
    };
    fixture.mirror.db.transaction(() => upsertApplication(fixture.mirror.db, application))();
    try {
      const printed = await printContract(fixture.mirror.db, { personId: foster.id }, settings());
      const text = flat(pdfText(printed.pdf));
      expect(text).toContain(foster.name);
      expect(text).toContain(full.name);
      expect(text).toContain('Draft: this application is waiting for a decision');
    } finally {
      fixture.mirror.db.transaction(() =>
        statement(fixture.mirror.db, 'DELETE FROM application WHERE id = ?').run(application.id),
      )();
    }
  });

  it('flows a long contract over numbered pages without cutting text at an edge', async () => {
    await withAdopterContract(clauses(30), async () => {
      const printed = await printContract(fixture.mirror.db, { personId: fixture.adopter.id }, settings());
      const { pages } = pdfInfo(printed.pdf);
      expect(pages).toBeGreaterThan(1);
      expect(flat(pageText(printed.pdf, pages))).toContain(`page ${pages} of ${pages}`);
      expect(flat(pdfText(printed.pdf))).toContain('clause number 30.');
      expect(wordsOffPage(printed.pdf)).toEqual([]);
      renderPages(printed.pdf, IMAGES, 'contract-long-a4');
    });
  });

  it('never leaves the signatures alone on a page: the last section of the terms goes over with them', async () => {
    // From terms that fit on the first page with the signatures to terms that push them onto a second one.
    for (let count = 3; count <= 12; count += 1) {
      await withAdopterContract(clauses(count), async () => {
        const printed = await printContract(fixture.mirror.db, { personId: fixture.adopter.id }, settings());
        const { pages } = pdfInfo(printed.pdf);
        const last = flat(pageText(printed.pdf, pages));
        expect(last, `${count} clauses`).toContain('Signature of the adopter');
        expect(last, `${count} clauses`).toContain(`Clause ${count} The adopter agrees`);
        expect(wordsOffPage(printed.pdf)).toEqual([]);
      });
    }
  });

  it('keeps accented names and says what to do before the first sync', async () => {
    const printed = await printContract(fixture.mirror.db, { personId: fixture.surrender.id }, settings());
    expect(flat(pdfText(printed.pdf))).toContain('Chris Müller');
    fixture.mirror.db.prepare("DELETE FROM metadata WHERE key = 'contract:volunteer'").run();
    await expect(
      printContract(fixture.mirror.db, { personId: fixture.volunteer.id }, settings()),
    ).rejects.toMatchObject({
      code: 'not_synced',
      message: expect.stringContaining('Sync'),
    });
    await expect(printContract(fixture.mirror.db, { personId: 'nobody' }, settings())).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('says where to write a contract the shelter has left empty (a new shelter run on its own desk)', async () => {
    await withAdopterContract('  \n', async () => {
      await expect(
        printContract(fixture.mirror.db, { personId: fixture.adopter.id }, settings()),
      ).rejects.toMatchObject({
        code: 'not_synced',
        message: expect.stringContaining('Write it under Contracts'),
      });
    });
  });
});
