import type { PrintedPdfResult } from '../../../../shared/desk-api';
import type { Mirror } from '../../mirror';
import {
  fetchPhoto,
  type LoadPhoto,
  type PrintedPdf,
  printCards,
  printContract,
  printKennelCard,
} from '../../print';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';

export interface PrintHandlerOptions {
  /** Where card photos come from: the desk's photo cache in the app; default (tests): a bounded fetch. */
  loadPhoto?: LoadPhoto;
  /** The photos of a pet kept on this desk only (its server takes photo links only): printed after its own. */
  deskPhotos?: (petId: string) => string[];
  /** Brings the mirror's applications up to date when this desk runs its shelter (see `shelterApplications`). */
  refreshApplications?: () => void;
}

function result(printed: PrintedPdf): PrintedPdfResult {
  return {
    filename: printed.filename,
    base64: printed.pdf.toString('base64'),
    pages: printed.pages,
    bytes: printed.pdf.length,
  };
}

/**
 * `print.*`: kennel cards, event batches and contracts as PDF, made here from the mirror so the desktop window,
 * browser mode and the CLI get the same file, online or not. The bytes travel back as base64; the screen offers them
 * as a download (a save dialog on the desktop).
 */
export function registerPrintHandlers(
  registry: HandlerTable,
  context: DeskContext,
  mirror: Mirror,
  options: PrintHandlerOptions = {},
): void {
  const settings = (paper: 'a4' | 'letter') => ({
    paper,
    loadPhoto: options.loadPhoto ?? ((url: string) => fetchPhoto(url)),
    ...(options.deskPhotos && { deskPhotos: options.deskPhotos }),
    shelterName: context.settings.get().shelterName,
    currency: context.settings.get().currency,
  });
  registry.handle('print.kennelCard', async ({ id, paper }) =>
    result(await printKennelCard(mirror.db, id, settings(paper))),
  );
  registry.handle('print.cards', async (input) =>
    result(
      await printCards(
        mirror.db,
        'petIds' in input ? { petIds: input.petIds } : { filter: input.filter },
        settings(input.paper),
      ),
    ),
  );
  registry.handle('print.contract', async (input) => {
    if ('applicationId' in input) {
      // A standalone desk reads its shelter's applications first, so one that just arrived prints at once.
      options.refreshApplications?.();
      return result(
        await printContract(mirror.db, { applicationId: input.applicationId }, settings(input.paper)),
      );
    }
    const { personId, petIds, paper } = input;
    return result(await printContract(mirror.db, { personId, petIds }, settings(paper)));
  });
}
