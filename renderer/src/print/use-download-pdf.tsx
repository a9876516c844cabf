import { Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import type { DeskError, Paper, PrintedPdfResult } from '../../../shared/desk-api';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { toDeskError } from '../lib/desk-error';
import { describePdf, rememberPaper, savePdf } from './save-pdf';

export interface PdfDownload {
  busy: boolean;
  error: DeskError | undefined;
  /** "kennel-cards.pdf (3 pages, 120 KB)" once a PDF was offered. */
  saved: string | undefined;
  /** Remembers the paper size, asks the core for the PDF (`make`) and offers it as a download. */
  download(paper: Paper, make: (paper: Paper) => Promise<PrintedPdfResult>): Promise<void>;
}

/** The download step every print button shares: busy while the core renders, then what was saved or why not. */
export function useDownloadPdf(): PdfDownload {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const download = useCallback(async (paper: Paper, make: (paper: Paper) => Promise<PrintedPdfResult>) => {
    rememberPaper(paper);
    setBusy(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const pdf = await make(paper);
      savePdf(pdf);
      setSaved(`${pdf.filename} (${describePdf(pdf)})`);
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, saved, download };
}

/** What the last download did: the file offered (a status line) or why nothing was printed. */
export function DownloadOutcome({ state, size = 'sm' }: { state: PdfDownload; size?: 'xs' | 'sm' }) {
  return (
    <>
      {state.saved && (
        <Text size={size} c="dimmed" role="status">
          Downloaded {state.saved}
        </Text>
      )}
      {state.error && <DeskErrorAlert error={state.error} title="Nothing was printed" />}
    </>
  );
}
