import { execFileSync } from 'node:child_process';

/** Page count, first page size and text of a PDF file, read with poppler-utils. */
export function readPdf(file: string): { pages: number; size: string; text: string } {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return {
    pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]),
    size: /^Page size:\s+(.*)$/m.exec(info)?.[1] ?? '',
    text: execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
  };
}
