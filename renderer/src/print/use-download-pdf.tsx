import { Anchor, Text } from '@mantine/core';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { DeskError, Paper, PrintedPdfResult } from '../../../shared/desk-api';
import { useSettings } from '../bridge/settings';
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

/**
 * A busy button is disabled, and the browser drops the focus of a disabled button to the page: once the PDF is
 * ready, the focus goes back to `returnTo` (a menu's button) or to what had it when the download started, unless the
 * person moved it elsewhere meanwhile.
 */
function restoreFocus(target: Element | null | undefined): void {
  const active = document.activeElement;
  if (active && active !== document.body) return;
  if (target instanceof HTMLElement && target.isConnected) target.focus({ preventScroll: true });
}

/** The download step every print button shares: busy while the core renders, then what was saved or why not. */
export function useDownloadPdf(returnTo?: RefObject<HTMLElement | null>): PdfDownload {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const focusAfter = useRef<Element | null>(null);
  // Once the button is enabled again (rendered not busy), it can take the focus back.
  useEffect(() => {
    if (busy || !focusAfter.current) return;
    restoreFocus(returnTo?.current ?? focusAfter.current);
    focusAfter.current = null;
  }, [busy, returnTo]);
  const download = useCallback(async (paper: Paper, make: (paper: Paper) => Promise<PrintedPdfResult>) => {
    rememberPaper(paper);
    focusAfter.current = document.activeElement;
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

/**
 * What the last download did: the file offered (a status line) or why nothing was printed. Cards and agreements
 * print the shelter's name from Settings: without one, the line says where to give it.
 */
export function DownloadOutcome({ state, size = 'sm' }: { state: PdfDownload; size?: 'xs' | 'sm' }) {
  const { settings } = useSettings();
  const unnamed = settings !== undefined && settings.shelterName.trim() === '';
  return (
    <>
      {state.saved && (
        // As wide as what holds it, never wider (width 0, at least all of it): beside a print button the line wraps
        // under the button instead of pushing the buttons next to it aside.
        <Text
          size={size}
          c="dimmed"
          role="status"
          style={{ width: 0, minWidth: '100%', overflowWrap: 'anywhere' }}
        >
          Downloaded {state.saved}
          {unnamed && (
            <>
              . Your shelter’s name is not on it: give it in{' '}
              <Anchor href="#/settings" inherit underline="always">
                Settings
              </Anchor>
              .
            </>
          )}
        </Text>
      )}
      {state.error && <DeskErrorAlert error={state.error} title="Nothing was printed" />}
    </>
  );
}
