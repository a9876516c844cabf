import type { Pet } from '../../../shared/contract';
import { ageInWords } from '../../../shared/wording/age';
import type { FeeExplanation } from './fee';
import { fontSegments, widthOfSegments } from './fonts';
import { boxText, COLORS, type Doc, drawQrCode, PAPER_SIZES, type Paper, rule } from './pdf-document';
import { shortLink } from './public-page';
import { formatCalendarDate, humanize } from './words';

/** Everything one kennel card shows, resolved before drawing (drawing is synchronous). */
export interface KennelCard {
  pet: Pet;
  fee: FeeExplanation;
  /** JPEG or PNG bytes; a placeholder is drawn when absent. */
  photo: Buffer | undefined;
  /** The pet's public page (see `publicPageAddress`); no QR code without one. */
  publicPage: string | undefined;
  shelterName: string;
  /** Calendar date of printing, YYYY-MM-DD. */
  printedOn: string;
}

const MARGIN = 40;
/** What the card says of a fact the record does not hold, the same for every fact. */
const NOT_RECORDED = 'Not recorded';

function ageText(pet: Pet): string {
  const parts = [ageInWords(pet.age_years, pet.age_months)];
  const born = formatCalendarDate(pet.age_birthday);
  if (born) parts.push(`born ${born}`);
  const given = parts.filter(Boolean).join(', ');
  const category = humanize(pet.age_category);
  return given ? `${given} · ${category}` : category;
}

function words(values: readonly string[]): string {
  return values.length > 0 ? values.map((value) => humanize(value)).join(', ') : NOT_RECORDED;
}

function spayedText(pet: Pet): string {
  if (pet.spayed)
    return pet.sex === 'male' ? 'Yes (neutered)' : pet.sex === 'female' ? 'Yes (spayed)' : 'Yes';
  return 'No';
}

/** The facts of the card's right column, in reading order. */
export function cardFacts(pet: Pet): Array<[string, string]> {
  return [
    ['Species', humanize(pet.species)],
    ['Breed', pet.breed.length > 0 ? pet.breed.join(' / ') : 'Unknown'],
    ['Sex', humanize(pet.sex)],
    ['Age', ageText(pet)],
    ['Size', humanize(pet.size)],
    ['Colour', pet.color.length > 0 ? pet.color.join(', ') : NOT_RECORDED],
    ['Weight', pet.weight?.trim() || NOT_RECORDED],
    ['Spayed / neutered', spayedText(pet)],
    ['Microchip', pet.microchip_id?.trim() || NOT_RECORDED],
    ['Intake date', formatCalendarDate(pet.intake_date) ?? NOT_RECORDED],
    // The record's UUID means nothing to staff at the kennel: a pet without a shelter id says so.
    ['Shelter id', pet.custom_id?.trim() || 'None given yet'],
  ];
}

function drawPhoto(doc: Doc, photo: Buffer | undefined, x: number, y: number, size: number): void {
  doc.save().roundedRect(x, y, size, size, 10).fill(COLORS.panel).restore();
  if (photo) {
    try {
      doc.save().roundedRect(x, y, size, size, 10).clip();
      doc.image(photo, x, y, { cover: [size, size], align: 'center', valign: 'center' });
      doc.restore();
      return;
    } catch {
      doc.restore();
      // An image PDFKit cannot decode after all: fall through to the placeholder.
    }
  }
  // Placeholder: a paw drawn from circles, and the words, so a missing photo looks intended.
  const cx = x + size / 2;
  const cy = y + size / 2 - 14;
  doc.save().fillColor('#b8cfc8');
  doc.circle(cx, cy + 14, 24).fill();
  for (const [dx, dy] of [
    [-30, -20],
    [-11, -38],
    [11, -38],
    [30, -20],
  ] as const) {
    doc.circle(cx + dx, cy + dy, 10).fill();
  }
  doc.restore();
  boxText(doc, 'Photo not available', {
    x,
    y: y + size - 34,
    width: size,
    size: 10,
    color: COLORS.muted,
    align: 'center',
  });
}

function section(
  doc: Doc,
  label: string,
  text: string,
  x: number,
  y: number,
  width: number,
  height: number,
): void {
  boxText(doc, label.toUpperCase(), { x, y, width, size: 8, bold: true, color: COLORS.muted });
  boxText(doc, text, { x, y: y + 12, width, height: height - 12, size: 10 });
}

/** Adds one page with the kennel card of a pet. */
export function drawKennelCard(doc: Doc, card: KennelCard, paper: Paper): void {
  const { width, height } = PAPER_SIZES[paper];
  doc.addPage({ size: [width, height], margin: 0 });
  const { pet, fee } = card;
  const contentWidth = width - MARGIN * 2;
  let y = MARGIN;

  boxText(doc, card.shelterName || 'Kennel card', {
    x: MARGIN,
    y,
    width: contentWidth,
    size: 10,
    bold: true,
    color: COLORS.accent,
  });
  y += 16;
  // A long name shrinks to fit one line, down to 20 pt; longer still, it wraps onto a second line.
  let nameSize = 30;
  const nameSegments = fontSegments(pet.name, 'bold');
  while (nameSize > 20 && widthOfSegments(doc.fontSize(nameSize), nameSegments) > contentWidth) nameSize -= 2;
  const nameHeight = boxText(doc, pet.name, {
    x: MARGIN,
    y,
    width: contentWidth,
    height: nameSize * 2.4,
    size: nameSize,
    bold: true,
  });
  y += nameHeight + 6;
  const subtitle = [humanize(pet.species), humanize(pet.status), pet.custom_id ?? '']
    .filter(Boolean)
    .join('  ·  ');
  boxText(doc, subtitle, { x: MARGIN, y, width: contentWidth, size: 12, color: COLORS.muted });
  y += 22;
  rule(doc, MARGIN, y, contentWidth);
  y += 14;

  const photoSize = Math.min(230, contentWidth * 0.42);
  drawPhoto(doc, card.photo, MARGIN, y, photoSize);
  const factsX = MARGIN + photoSize + 20;
  const factsWidth = contentWidth - photoSize - 20;
  const labelWidth = 92;
  let factY = y;
  for (const [label, value] of cardFacts(pet)) {
    boxText(doc, label, { x: factsX, y: factY + 1, width: labelWidth - 6, size: 9, color: COLORS.muted });
    const used = boxText(doc, value, {
      x: factsX + labelWidth,
      y: factY,
      width: factsWidth - labelWidth,
      height: 26,
      size: 10.5,
    });
    factY += Math.max(used, 13) + 7;
  }
  y += Math.max(photoSize, factY - y) + 16;

  // The fee, with the rule it comes from.
  const feeHeight = 56;
  doc.save().roundedRect(MARGIN, y, contentWidth, feeHeight, 8).fill(COLORS.panel).restore();
  boxText(doc, 'ADOPTION FEE', {
    x: MARGIN + 14,
    y: y + 10,
    width: 140,
    size: 8,
    bold: true,
    color: COLORS.muted,
  });
  boxText(doc, fee.text, {
    x: MARGIN + 14,
    y: y + 22,
    width: 150,
    size: 22,
    bold: true,
    color: COLORS.accent,
  });
  boxText(doc, fee.source, {
    x: MARGIN + 170,
    y: y + 14,
    width: contentWidth - 184,
    height: 30,
    size: 10,
    color: COLORS.ink,
  });
  y += feeHeight + 16;

  const columnWidth = (contentWidth - 24) / 3;
  const traitsHeight = 52;
  section(doc, 'Temperament', words(pet.temperaments), MARGIN, y, columnWidth, traitsHeight);
  section(doc, 'Good with', words(pet.good_with), MARGIN + columnWidth + 12, y, columnWidth, traitsHeight);
  section(
    doc,
    'Not good with',
    words(pet.bad_with),
    MARGIN + 2 * (columnWidth + 12),
    y,
    columnWidth,
    traitsHeight,
  );
  y += traitsHeight + 8;
  section(
    doc,
    'Special needs',
    pet.special_needs.length > 0 ? pet.special_needs.join(', ') : NOT_RECORDED,
    MARGIN,
    y,
    contentWidth,
    36,
  );
  y += 44;
  rule(doc, MARGIN, y, contentWidth);
  y += 12;

  // Description, then the QR code beside it when the pet has a public page.
  const footerY = height - MARGIN - 12;
  // The code's column: the code, its address under it (wrapped, never over the description), and a caption.
  const qrColumn = card.publicPage ? 128 : 0;
  const qrSize = 96;
  const textWidth = card.publicPage ? contentWidth - qrColumn - 16 : contentWidth;
  boxText(doc, `ABOUT ${pet.name}`.toUpperCase(), {
    x: MARGIN,
    y,
    width: textWidth,
    size: 8,
    bold: true,
    color: COLORS.muted,
  });
  boxText(doc, pet.description.trim() || 'No description yet.', {
    x: MARGIN,
    y: y + 13,
    width: textWidth,
    height: Math.max(14, footerY - 10 - (y + 13)),
    size: 10.5,
  });
  if (card.publicPage) {
    const columnX = MARGIN + contentWidth - qrColumn;
    boxText(doc, 'MEET ME ONLINE', {
      x: columnX,
      y,
      width: qrColumn,
      size: 8,
      bold: true,
      color: COLORS.muted,
      align: 'center',
    });
    drawQrCode(doc, card.publicPage, columnX + (qrColumn - qrSize) / 2, y + 13, qrSize);
    boxText(doc, shortLink(card.publicPage), {
      x: columnX,
      y: y + qrSize + 17,
      width: qrColumn,
      height: 30,
      size: 8,
      color: COLORS.muted,
      align: 'center',
    });
  }
  rule(doc, MARGIN, footerY - 4, contentWidth);
  boxText(doc, `Printed ${formatCalendarDate(card.printedOn) ?? card.printedOn} with Shelter Desk`, {
    x: MARGIN,
    y: footerY,
    width: contentWidth,
    size: 8,
    color: COLORS.muted,
  });
}
