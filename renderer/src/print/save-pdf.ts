import type { Paper, PrintedPdfResult } from '../../../shared/desk-api';
import { offerDownload } from '../lib/offer-download';

const PAPER_KEY = 'shelter-desk.paper';

/** Offers a PDF made by the core as a download (see `offerDownload`). */
export function savePdf(pdf: PrintedPdfResult): void {
  const binary = atob(pdf.base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  offerDownload(pdf.filename, new Blob([bytes], { type: 'application/pdf' }));
}

/** The paper size last printed on at this desk (A4 until someone chooses US Letter). */
export function preferredPaper(): Paper {
  try {
    return window.localStorage.getItem(PAPER_KEY) === 'letter' ? 'letter' : 'a4';
  } catch {
    return 'a4';
  }
}

export function rememberPaper(paper: Paper): void {
  try {
    window.localStorage.setItem(PAPER_KEY, paper);
  } catch {
    // Private mode or storage off: the choice is simply not remembered.
  }
}

/** "3 pages, 120 KB". */
export function describePdf(pdf: PrintedPdfResult): string {
  const size =
    pdf.bytes >= 1024 * 1024
      ? `${(pdf.bytes / 1024 / 1024).toFixed(1)} MB`
      : `${Math.ceil(pdf.bytes / 1024)} KB`;
  return `${pdf.pages === 1 ? '1 page' : `${pdf.pages} pages`}, ${size}`;
}
