import type { Token } from 'marked';
import type QRCodeModule from 'qrcode';
import type { Paper } from '../../../shared/desk-api/print';
import { FONT_NAMES, type FontSegment, fontSegments, registerFonts, widthOfSegments } from './fonts';
import { printable } from './words';

export type { Paper };

/** Page sizes in PDF points (1/72 inch). */
export const PAPER_SIZES: Record<Paper, { width: number; height: number; name: string }> = {
  a4: { width: 595.28, height: 841.89, name: 'A4' },
  letter: { width: 612, height: 792, name: 'Letter' },
};

export const COLORS = {
  ink: '#1f2933',
  muted: '#5f6b7a',
  line: '#c9d1db',
  panel: '#eef5f3',
  accent: '#0b7a63',
  /** What is not final yet (a draft agreement). */
  warning: '#9a3412',
};

export type Doc = PDFKit.PDFDocument;

/**
 * pdfkit, qrcode and marked, imported by the first document rather than with this module: loading them costs more
 * than a command line call that prints nothing (`outbox list` assembles the whole desk core, print service
 * included).
 */
let libraries:
  | {
      PDFDocument: typeof import('pdfkit');
      QRCode: typeof QRCodeModule;
      lexer: typeof import('marked').lexer;
    }
  | undefined;

async function loadLibraries(): Promise<NonNullable<typeof libraries>> {
  if (!libraries) {
    const [pdfkit, qrcode, marked] = await Promise.all([
      import('pdfkit'),
      import('qrcode'),
      import('marked'),
    ]);
    libraries = { PDFDocument: pdfkit.default, QRCode: qrcode.default, lexer: marked.lexer };
  }
  return libraries;
}

/** Loaded with the first document: what drawing on a `Doc` may use. */
function loaded(): NonNullable<typeof libraries> {
  if (!libraries) throw new Error('Drawing needs a document from createDocument.');
  return libraries;
}

/** Markdown's block tokens (marked's lexer), for text drawn into a document from `createDocument`. */
export function markdownTokens(markdown: string): Token[] {
  return loaded().lexer(markdown);
}

/**
 * A new PDF with the desk's settings: the print fonts (fonts.ts: every script the desk's records may hold, subset
 * to the glyphs used) and document metadata for the PDF reader's title bar. Cards use no page margins (every block places itself and bounds its own height, so
 * text never spills onto an extra page or off the edge); contracts flow within `flow.margin` onto as many pages as
 * their text needs, buffered so each page can be numbered at the end.
 */
export async function createDocument(
  paper: Paper,
  title: string,
  flow: { margin: number; bufferPages: boolean } = { margin: 0, bufferPages: false },
): Promise<{ doc: Doc; done: Promise<Buffer> }> {
  const { PDFDocument } = await loadLibraries();
  const size = PAPER_SIZES[paper];
  const doc = new PDFDocument({
    size: [size.width, size.height],
    margin: flow.margin,
    autoFirstPage: false,
    bufferPages: flow.bufferPages,
    info: { Title: printable(title), Creator: 'Shelter Desk', Producer: 'Shelter Desk (PDFKit)' },
  });
  registerFonts(doc);
  doc.font(FONT_NAMES.regular);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/**
 * A page of `paper` to measure on, never printed: a block written from its top margin shows how much room the block
 * takes (the same fonts and wrapping as the document it is for). Only once a document from `createDocument` exists.
 */
export function scratchPage(paper: Paper, margin: number): Doc {
  const size = PAPER_SIZES[paper];
  const doc = new (loaded().PDFDocument)({ size: [size.width, size.height], margin, bufferPages: true });
  registerFonts(doc);
  doc.font(FONT_NAMES.regular);
  return doc;
}

export interface BoxText {
  x: number;
  y: number;
  width: number;
  /** The most the text may take; longer text ends with an ellipsis. Default: one line. */
  height?: number;
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'center' | 'right';
}

export interface SegmentOptions {
  width: number;
  height?: number;
  ellipsis?: boolean;
  align?: 'left' | 'center' | 'right';
  lineGap?: number;
}

/**
 * OpenType features turned off when writing: mark positioning. DejaVu's combining marks already sit over the
 * letter before them; positioned again, PDF readers see a gap after the mark and split the word ("Ми́ ла").
 */
const FEATURES = { mark: false, mkmk: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];

/**
 * Writes runs of text in their fonts as one flowing text: at (x, y), or where the document is when `at` is omitted.
 * PDFKit aligns each run of a line on its own, so a centred or right-aligned text of several fonts that fits on one
 * line is placed run by run here; longer, it flows left-aligned.
 */
export function writeSegments(
  doc: Doc,
  segments: readonly FontSegment[],
  options: SegmentOptions,
  at?: { x: number; y: number },
): void {
  if (segments.length === 0) return;
  const x = at?.x ?? doc.x;
  const y = at?.y ?? doc.y;
  if (segments.length > 1 && options.align && options.align !== 'left') {
    const total = widthOfSegments(doc, segments);
    if (total <= options.width && !segments.some((segment) => segment.text.includes('\n'))) {
      let left = x + (options.align === 'center' ? (options.width - total) / 2 : options.width - total);
      for (const segment of segments) {
        doc.font(segment.font);
        doc.text(segment.text, left, y, { lineBreak: false, features: FEATURES });
        left += doc.widthOfString(segment.text);
      }
      doc.x = x;
      return;
    }
  }
  const flow = {
    ...options,
    align: segments.length > 1 ? 'left' : (options.align ?? 'left'),
    features: FEATURES,
  } as const;
  segments.forEach((segment, index) => {
    doc.font(segment.font);
    const run = { ...flow, continued: index < segments.length - 1 };
    if (index === 0) doc.text(segment.text, x, y, run);
    else doc.text(segment.text, run);
  });
}

/** Writes text inside a box (bounded width and height, ellipsis when longer); returns the height used. */
export function boxText(doc: Doc, text: string, box: BoxText): number {
  const size = box.size ?? 10;
  const style = box.bold ? 'bold' : 'regular';
  const segments = fontSegments(text, style);
  doc
    .font(FONT_NAMES[style])
    .fontSize(size)
    .fillColor(box.color ?? COLORS.ink);
  const lineHeight = doc.currentLineHeight(true);
  const height = box.height ?? lineHeight;
  // Measured in the main font; a character of another font counts as a wide letter (ideographs are one em).
  const measured = segments
    .map((segment) =>
      segment.font === FONT_NAMES[style] ? segment.text : 'W'.repeat([...segment.text].length),
    )
    .join('');
  doc.font(FONT_NAMES[style]);
  const used = Math.min(
    height,
    doc.heightOfString(measured, { width: box.width, align: box.align ?? 'left' }) || lineHeight,
  );
  writeSegments(
    doc,
    segments,
    { width: box.width, height, ellipsis: true, align: box.align ?? 'left' },
    { x: box.x, y: box.y },
  );
  return used;
}

/** A QR code drawn as vector squares (sharp at any printer resolution), `size` points wide, quiet zone included. */
export function drawQrCode(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = loaded().QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const quiet = 2;
  const cell = size / (count + quiet * 2);
  doc.save().rect(x, y, size, size).fill('#ffffff');
  doc.fillColor('#000000');
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.modules.get(row, col)) {
        doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell + 0.05, cell + 0.05);
      }
    }
  }
  doc.fill().restore();
}

/** A thin horizontal rule. */
export function rule(doc: Doc, x: number, y: number, width: number, color = COLORS.line): void {
  doc
    .save()
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.75)
    .strokeColor(color)
    .stroke()
    .restore();
}
