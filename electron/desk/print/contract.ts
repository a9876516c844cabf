import type { Token, Tokens } from 'marked';
import type { ContractType, Person, Pet } from '../../../shared/contract';
import type { FeeExplanation } from './fee';
import { BODY_SIZE, inlineRuns, writeMarkdown, writeRuns } from './markdown';
import {
  boxText,
  COLORS,
  type Doc,
  markdownTokens,
  PAPER_SIZES,
  type Paper,
  rule,
  scratchPage,
} from './pdf-document';
import { formatCalendarDate, formatMoney, humanize } from './words';

export interface ContractPet {
  pet: Pet;
  /** Adoption contracts only: the fee and its rule. */
  fee?: FeeExplanation;
}

/** Everything a printed contract shows. */
export interface ContractPrint {
  type: ContractType;
  /** The shelter's contract text (Markdown) as last synced. */
  markdown: string;
  person: Person;
  pets: ContractPet[];
  shelterName: string;
  /** The shelter's currency (ISO 4217), for the total fee. */
  currency: string;
  /** Calendar date of the agreement, YYYY-MM-DD. */
  date: string;
  /** Printed under the title when the agreement is not yet the one to sign (an application still waiting). */
  draft?: string;
}

export const MARGIN = 56;

const TITLES: Record<ContractType, string> = {
  adopter: 'Adoption agreement',
  foster: 'Foster agreement',
  volunteer: 'Volunteer agreement',
  surrender: 'Owner surrender agreement',
};

const ROLE: Record<ContractType, string> = {
  adopter: 'Adopter',
  foster: 'Foster',
  volunteer: 'Volunteer',
  surrender: 'Owner',
};

/** The contract's title: its first level-1 heading, or the type's name. The heading is then not printed twice. */
function splitTitle(tokens: Token[], type: ContractType): { title: string; body: Token[] } {
  const index = tokens.findIndex((token) => token.type !== 'space');
  const first = tokens[index];
  if (first?.type === 'heading' && (first as Tokens.Heading).depth === 1) {
    const title = inlineRuns((first as Tokens.Heading).tokens)
      .map((run) => run.text)
      .join('');
    return { title, body: tokens.slice(index + 1) };
  }
  return { title: TITLES[type], body: tokens };
}

/** Moves to a new page when fewer than `needed` points are left above the bottom margin. */
function ensureRoom(doc: Doc, needed: number): void {
  if (doc.y + needed > doc.page.height - MARGIN) doc.addPage();
}

function labelled(doc: Doc, label: string, value: string, x: number, y: number, width: number): void {
  boxText(doc, label, { x, y, width: 80, size: 9, color: COLORS.muted });
  boxText(doc, value, { x: x + 80, y, width: width - 80, size: 10.5 });
}

function drawParties(doc: Doc, contract: ContractPrint, width: number): void {
  const { person } = contract;
  const rows: Array<[string, string]> = [
    [ROLE[contract.type], person.name],
    ['Email', person.email?.trim() || 'Not given'],
    ['Phone', person.phone?.trim() || 'Not given'],
    ['Address', person.address?.trim() || 'Not given'],
    ['Date', formatCalendarDate(contract.date) ?? contract.date],
  ];
  ensureRoom(doc, rows.length * 17 + 20);
  const top = doc.y;
  doc
    .save()
    .roundedRect(MARGIN, top, width, rows.length * 17 + 14, 6)
    .fill('#f4f7f6')
    .restore();
  for (const [index, [label, value]] of rows.entries()) {
    labelled(doc, label, value, MARGIN + 12, top + 8 + index * 17, width - 24);
  }
  doc.y = top + rows.length * 17 + 26;
}

function drawPets(doc: Doc, contract: ContractPrint, width: number): void {
  if (contract.pets.length === 0) return;
  const withFees = contract.type === 'adopter';
  const heading =
    contract.type === 'surrender'
      ? 'Animals surrendered'
      : contract.type === 'foster'
        ? 'Animals in foster care'
        : 'Animals';
  ensureRoom(doc, 60);
  boxText(doc, heading, { x: MARGIN, y: doc.y, width, size: 12, bold: true });
  doc.y += 20;
  const feeWidth = withFees ? 190 : 0;
  const nameWidth = width - feeWidth;
  for (const { pet, fee } of contract.pets) {
    ensureRoom(doc, 44);
    const y = doc.y;
    boxText(doc, pet.name, { x: MARGIN, y, width: nameWidth - 10, size: 11, bold: true });
    const details = [
      humanize(pet.species),
      pet.breed.join(' / '),
      humanize(pet.sex),
      pet.custom_id ? `Shelter id ${pet.custom_id}` : '',
      pet.microchip_id ? `Microchip ${pet.microchip_id}` : '',
    ].filter(Boolean);
    boxText(doc, details.join(' · '), {
      x: MARGIN,
      y: y + 14,
      width: nameWidth - 10,
      height: 24,
      size: 9,
      color: COLORS.muted,
    });
    if (withFees && fee) {
      boxText(doc, fee.text, {
        x: MARGIN + nameWidth,
        y,
        width: feeWidth,
        size: 11,
        bold: true,
        align: 'right',
      });
      boxText(doc, fee.source, {
        x: MARGIN + nameWidth,
        y: y + 14,
        width: feeWidth,
        height: 24,
        size: 8,
        color: COLORS.muted,
        align: 'right',
      });
    }
    doc.y = y + 40;
    rule(doc, MARGIN, doc.y - 4, width);
  }
  if (withFees) {
    const amounts = contract.pets.map(({ fee }) => fee?.amount);
    const known = amounts.filter((amount): amount is number => typeof amount === 'number');
    const total = known.reduce((sum, amount) => sum + amount, 0);
    const text =
      known.length === amounts.length
        ? formatMoney(total, contract.currency)
        : `${formatMoney(total, contract.currency)} plus fees not set`;
    ensureRoom(doc, 24);
    boxText(doc, `Total adoption fee: ${text}`, {
      x: MARGIN,
      y: doc.y + 2,
      width,
      size: 11.5,
      bold: true,
      align: 'right',
    });
    doc.y += 22;
  }
  doc.moveDown(0.5);
}

/** The room the signature block needs below the terms. */
const SIGNATURES_ROOM = 130;

/** The terms' last block, with the heading right before it: the part that goes onto the page of the signatures. */
function splitLastSection(body: readonly Token[]): { before: Token[]; last: Token[] } {
  const blocks = body.map((token, index) => ({ token, index })).filter(({ token }) => token.type !== 'space');
  const lastBlock = blocks.at(-1);
  if (!lastBlock) return { before: [...body], last: [] };
  const heading = blocks.at(-2);
  const start = heading?.token.type === 'heading' ? heading.index : lastBlock.index;
  return { before: body.slice(0, start), last: body.slice(start) };
}

/**
 * Starts a new page for the terms' last section when it and the signatures would not both fit on this one (but do on
 * a page of their own): signatures alone on a sheet, apart from the terms they sign, are weak on paper.
 */
function keepWithSignatures(doc: Doc, last: Token[], paper: Paper, width: number): void {
  if (last.length === 0) return;
  const scratch = scratchPage(paper, MARGIN);
  scratch.y = MARGIN;
  // The body text's size, written just before it: the section's first spacing is measured in its lines.
  scratch.fontSize(BODY_SIZE);
  writeMarkdown(scratch, '', { x: MARGIN, width }, last);
  const onOnePage = scratch.bufferedPageRange().count === 1;
  const needed = scratch.y - MARGIN + SIGNATURES_ROOM;
  const bottom = doc.page.height - MARGIN;
  if (onOnePage && doc.y + needed > bottom && MARGIN + needed <= bottom) doc.addPage();
}

function drawSignatures(doc: Doc, contract: ContractPrint, width: number): void {
  ensureRoom(doc, SIGNATURES_ROOM);
  doc.y += 16;
  const top = doc.y;
  const column = (width - 30) / 2;
  const signer = [
    [`Signature of the ${ROLE[contract.type].toLowerCase()}`, contract.person.name],
    [`For ${contract.shelterName || 'the shelter'}`, 'Name:'],
  ] as const;
  signer.forEach(([label, name], index) => {
    const x = MARGIN + index * (column + 30);
    rule(doc, x, top + 36, column, COLORS.ink);
    boxText(doc, label, { x, y: top + 40, width: column, size: 9, color: COLORS.muted });
    boxText(doc, name, { x, y: top + 54, width: column, size: 10.5 });
    rule(doc, x, top + 96, column * 0.6, COLORS.ink);
    boxText(doc, 'Date', { x, y: top + 100, width: column, size: 9, color: COLORS.muted });
  });
  doc.y = top + 120;
}

/** Numbers every page and names the agreement in the footer (after the text has flowed, so "of N" is known). */
function drawFooters(doc: Doc, title: string, personName: string): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    // Writing inside the bottom margin must not start a new page.
    doc.page.margins.bottom = 0;
    boxText(doc, `${title} · ${personName} · page ${index + 1} of ${range.count}`, {
      x: MARGIN,
      y: doc.page.height - MARGIN + 18,
      width: doc.page.width - 2 * MARGIN,
      size: 8,
      color: COLORS.muted,
      align: 'center',
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Draws a whole contract (as many pages as its text needs) into a buffered document with `MARGIN` margins. */
export function drawContract(doc: Doc, contract: ContractPrint, paper: Paper): void {
  const { width: pageWidth, height } = PAPER_SIZES[paper];
  doc.addPage({ size: [pageWidth, height], margin: MARGIN });
  const width = pageWidth - 2 * MARGIN;
  const { title, body } = splitTitle(markdownTokens(contract.markdown), contract.type);
  if (contract.shelterName)
    boxText(doc, contract.shelterName, {
      x: MARGIN,
      y: MARGIN,
      width,
      size: 10,
      bold: true,
      color: COLORS.accent,
    });
  doc.y = MARGIN + 16;
  writeRuns(doc, [{ text: title, bold: true, italic: false }], { x: MARGIN, width }, 20);
  doc.moveDown(0.6);
  if (contract.draft) {
    writeRuns(
      doc,
      [{ text: contract.draft, bold: true, italic: false }],
      { x: MARGIN, width },
      10.5,
      COLORS.warning,
    );
    doc.moveDown(0.6);
  }
  drawParties(doc, contract, width);
  drawPets(doc, contract, width);
  const { before, last } = splitLastSection(body);
  writeMarkdown(doc, '', { x: MARGIN, width }, before);
  keepWithSignatures(doc, last, paper, width);
  writeMarkdown(doc, '', { x: MARGIN, width }, last);
  drawSignatures(doc, contract, width);
  drawFooters(doc, title, contract.person.name);
}
