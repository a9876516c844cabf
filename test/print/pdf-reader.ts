import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Reads PDFs with poppler-utils (`pdfinfo`, `pdftotext`, `pdftoppm`): a real reader, not the writer's own view. */

function withFile<T>(pdf: Buffer, use: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, pdf);
  try {
    return use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfPage {
  width: number;
  height: number;
}

export interface PdfInfo {
  pages: number;
  /** Size of every page in points. */
  sizes: PdfPage[];
  title: string | undefined;
}

export function pdfInfo(pdf: Buffer): PdfInfo {
  return withFile(pdf, (file) => {
    const summary = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(summary)?.[1] ?? 'NaN');
    const detail = execFileSync('pdfinfo', ['-f', '1', '-l', String(pages), file], { encoding: 'utf8' });
    const sizes = [...detail.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((match) => ({
      width: Number(match[1]),
      height: Number(match[2]),
    }));
    return { pages, sizes, title: /^Title:\s+(.*)$/m.exec(summary)?.[1] };
  });
}

/** The text of every page, in reading order (pages separated by form feeds). */
export function pdfText(pdf: Buffer): string {
  return withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  );
}

/** The text of one page (1-based). */
export function pageText(pdf: Buffer, page: number): string {
  return withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', String(page), '-l', String(page), file, '-'], {
      encoding: 'utf8',
    }),
  );
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word with its box in points (`pdftotext -bbox`), to check nothing is printed off the page. */
export function pdfWords(pdf: Buffer): { pages: PdfPage[]; words: Word[] } {
  const html = withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  );
  const pages: PdfPage[] = [];
  const words: Word[] = [];
  for (const chunk of html.split('<page ').slice(1)) {
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk);
    pages.push({ width: Number(size?.[1]), height: Number(size?.[2]) });
    for (const match of chunk.matchAll(
      /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g,
    )) {
      words.push({
        page: pages.length,
        text: match[5] ?? '',
        xMin: Number(match[1]),
        yMin: Number(match[2]),
        xMax: Number(match[3]),
        yMax: Number(match[4]),
      });
    }
  }
  return { pages, words };
}

/** Words closer than `margin` points to a page edge, or beyond it (text a printer would cut off). */
export function wordsOffPage(pdf: Buffer, margin = 18): Word[] {
  const { pages, words } = pdfWords(pdf);
  return words.filter((word) => {
    const page = pages[word.page - 1] as PdfPage;
    return (
      word.xMin < margin ||
      word.yMin < margin ||
      word.xMax > page.width - margin ||
      word.yMax > page.height - margin
    );
  });
}

/** Renders the pages as PNG files (for people to look at); returns their paths. */
export function renderPages(pdf: Buffer, outDir: string, name: string, dpi = 60): string[] {
  fs.mkdirSync(outDir, { recursive: true });
  return withFile(pdf, (file) => {
    const prefix = path.join(outDir, name);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), file, prefix]);
    return fs
      .readdirSync(outDir)
      .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.png'))
      .map((entry) => path.join(outDir, entry));
  });
}

/** Collapses whitespace (pdftotext breaks lines where the card wraps them). */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}
