import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Paper } from '../../../shared/desk-api/print';
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
};

export type Doc = PDFKit.PDFDocument;

/**
 * A new PDF with the desk's settings: the standard Helvetica family (no font files to ship) and document metadata
 * for the PDF reader's title bar. Cards use no page margins (every block places itself and bounds its own height, so
 * text never spills onto an extra page or off the edge); contracts flow within `flow.margin` onto as many pages as
 * their text needs, buffered so each page can be numbered at the end.
 */
export function createDocument(
  paper: Paper,
  title: string,
  flow: { margin: number; bufferPages: boolean } = { margin: 0, bufferPages: false },
): { doc: Doc; done: Promise<Buffer> } {
  const size = PAPER_SIZES[paper];
  const doc = new PDFDocument({
    size: [size.width, size.height],
    margin: flow.margin,
    autoFirstPage: false,
    bufferPages: flow.bufferPages,
    info: { Title: printable(title), Creator: 'Shelter Desk', Producer: 'Shelter Desk (PDFKit)' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
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

/** Writes text inside a box (bounded width and height, ellipsis when longer); returns the height used. */
export function boxText(doc: Doc, text: string, box: BoxText): number {
  const size = box.size ?? 10;
  doc
    .font(box.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor(box.color ?? COLORS.ink);
  const lineHeight = doc.currentLineHeight(true);
  const height = box.height ?? lineHeight;
  const clean = printable(text);
  const used = Math.min(
    height,
    doc.heightOfString(clean, { width: box.width, align: box.align ?? 'left' }) || lineHeight,
  );
  doc.text(clean, box.x, box.y, {
    width: box.width,
    height,
    ellipsis: true,
    align: box.align ?? 'left',
    lineBreak: true,
  });
  return used;
}

/** A QR code drawn as vector squares (sharp at any printer resolution), `size` points wide, quiet zone included. */
export function drawQrCode(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
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
