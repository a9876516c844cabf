import type { Token, Tokens } from 'marked';
import { FONT_NAMES, type FontStyle, fontSegments } from './fonts';
import { COLORS, type Doc, markdownTokens, writeSegments } from './pdf-document';

/** A piece of inline text with its style. */
export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
}

const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** Flattens marked's inline tokens into styled runs. Raw HTML is dropped (a contract is text, not markup). */
export function inlineRuns(tokens: readonly Token[] | undefined, bold = false, italic = false): Run[] {
  const runs: Run[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        runs.push(...inlineRuns((token as Tokens.Strong).tokens, true, italic));
        break;
      case 'em':
        runs.push(...inlineRuns((token as Tokens.Em).tokens, bold, true));
        break;
      case 'del':
      case 'link':
        runs.push(...inlineRuns((token as Tokens.Link).tokens, bold, italic));
        break;
      case 'br':
        runs.push({ text: '\n', bold, italic });
        break;
      case 'html':
        break;
      case 'text': {
        const text = token as Tokens.Text;
        if (text.tokens && text.tokens.length > 0) runs.push(...inlineRuns(text.tokens, bold, italic));
        else runs.push({ text: decode(text.text), bold, italic });
        break;
      }
      default:
        if ('text' in token && typeof token.text === 'string')
          runs.push({ text: decode(token.text), bold, italic });
    }
  }
  return runs;
}

function styleOf(run: Run): FontStyle {
  if (run.bold && run.italic) return 'boldItalic';
  if (run.bold) return 'bold';
  if (run.italic) return 'italic';
  return 'regular';
}

export interface FlowBox {
  x: number;
  width: number;
}

/** Writes styled runs as one flowing paragraph at the document's current position (page breaks as needed). */
export function writeRuns(
  doc: Doc,
  runs: readonly Run[],
  box: FlowBox,
  size: number,
  color = COLORS.ink,
): void {
  const segments = runs.flatMap((run) => fontSegments(run.text, styleOf(run)));
  const visible = segments.filter((segment) => segment.text.length > 0);
  if (visible.length === 0) return;
  doc.fontSize(size).fillColor(color);
  writeSegments(doc, visible, { width: box.width, lineGap: 2 }, { x: box.x, y: doc.y });
}

/** The size of paragraphs and list items. */
export const BODY_SIZE = 10.5;

const HEADING_SIZES: Record<number, number> = { 1: 18, 2: 13.5, 3: 12, 4: 11, 5: 11, 6: 11 };

/** Renders block Markdown (headings, paragraphs, lists, quotes, rules, simple tables) into flowing PDF text. */
export function writeMarkdown(
  doc: Doc,
  markdown: string,
  box: FlowBox,
  tokens: Token[] = markdownTokens(markdown),
): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        doc.moveDown(heading.depth <= 2 ? 0.6 : 0.4);
        writeRuns(doc, inlineRuns(heading.tokens, true), box, HEADING_SIZES[heading.depth] ?? 11);
        doc.moveDown(0.3);
        break;
      }
      case 'paragraph':
        writeRuns(doc, inlineRuns((token as Tokens.Paragraph).tokens), box, BODY_SIZE);
        doc.moveDown(0.6);
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        list.items.forEach((item, index) => {
          const marker = list.ordered ? `${start + index}.` : '•';
          const y = doc.y;
          doc
            .font(FONT_NAMES.regular)
            .fontSize(BODY_SIZE)
            .fillColor(COLORS.ink)
            .text(marker, box.x + 4, y, { width: 18 });
          doc.y = y;
          const runs = item.tokens.flatMap((child) =>
            child.type === 'list' ? [] : inlineRuns('tokens' in child ? child.tokens : [child]),
          );
          writeRuns(doc, runs, { x: box.x + 24, width: box.width - 24 }, BODY_SIZE);
          doc.moveDown(0.25);
          const nested = item.tokens.filter((child) => child.type === 'list');
          if (nested.length > 0) writeMarkdown(doc, '', { x: box.x + 24, width: box.width - 24 }, nested);
        });
        doc.moveDown(0.4);
        break;
      }
      case 'blockquote': {
        const startY = doc.y;
        writeMarkdown(doc, '', { x: box.x + 14, width: box.width - 14 }, (token as Tokens.Blockquote).tokens);
        if (doc.y > startY) {
          doc
            .save()
            .moveTo(box.x + 4, startY)
            .lineTo(box.x + 4, doc.y - 6)
            .lineWidth(2)
            .strokeColor(COLORS.line)
            .stroke()
            .restore();
        }
        break;
      }
      case 'hr':
        doc.moveDown(0.3);
        doc
          .save()
          .moveTo(box.x, doc.y)
          .lineTo(box.x + box.width, doc.y)
          .lineWidth(0.75)
          .strokeColor(COLORS.line)
          .stroke()
          .restore();
        doc.moveDown(0.8);
        break;
      case 'table': {
        const table = token as Tokens.Table;
        const rows = [table.header, ...table.rows];
        for (const [index, row] of rows.entries()) {
          const runs = row.flatMap((cell, column) => [
            ...(column > 0 ? [{ text: '   |   ', bold: false, italic: false }] : []),
            ...inlineRuns(cell.tokens, index === 0),
          ]);
          writeRuns(doc, runs, box, 10);
        }
        doc.moveDown(0.6);
        break;
      }
      case 'code':
        writeRuns(doc, [{ text: (token as Tokens.Code).text, bold: false, italic: false }], box, 10);
        doc.moveDown(0.6);
        break;
      default:
        break;
    }
  }
}
