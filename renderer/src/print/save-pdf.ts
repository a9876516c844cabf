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

/** Where US Letter is the usual paper (the rest of the world prints on A4). */
const LETTER_REGIONS = new Set([
  'US',
  'CA',
  'MX',
  'PH',
  'CL',
  'CO',
  'VE',
  'GT',
  'CR',
  'PA',
  'DO',
  'PR',
  'SV',
  'NI',
]);

/** The usual paper where people speak `language` (a BCP 47 tag: `en-US`, `en` read as `en-US`, `fr-CA`, `de`). */
export function usualPaper(language: string): Paper {
  try {
    const region = new Intl.Locale(language).maximize().region;
    return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4';
  } catch {
    return 'a4';
  }
}

/** The paper size last printed on at this desk, if it printed before. */
export function lastUsedPaper(): Paper | undefined {
  try {
    const stored = window.localStorage.getItem(PAPER_KEY);
    return stored === 'letter' || stored === 'a4' ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** The paper offered first: the one last printed on, or before any print the usual one where the desk is. */
export function preferredPaper(): Paper {
  return lastUsedPaper() ?? usualPaper(navigator.language);
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
