import type { Paper, PrintedPdfResult } from '../../../shared/desk-api';

const PAPER_KEY = 'shelter-desk.paper';

/**
 * Offers a PDF made by the core as a download: a Blob link clicked in code. Browser mode saves it in the browser's
 * downloads; the desktop window shows the system's save dialog for the same download. Nothing is sent anywhere.
 */
export function savePdf(pdf: PrintedPdfResult): void {
  const binary = atob(pdf.base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = pdf.filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy by the time the click returns; revoke a little later for slow browsers.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
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
