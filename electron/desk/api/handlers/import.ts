import { DeskCallError } from '../../../../shared/desk-api';
import type { ImportKind } from '../../../../shared/desk-api/import';
import {
  appendStaged,
  beginStaged,
  discardStaged,
  findStaged,
  headerKey,
  type ImportDesk,
  ImportSetupError,
  importFile,
  previewFile,
  rejectedRowsCsv,
  rejectedRowsFileName,
  UnreadableFileError,
} from '../../import';
import { getCustomFields, listPetStatuses, type Mirror } from '../../mirror';
import { localToday } from '../../print';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';
import type { DeskOutbox } from './outbox';

export interface ImportHandlerOptions {
  /** The shelter's own custom status labels (a standalone desk knows them all; others only those in use). */
  customStatusLabels?: () => string[];
  /** The desk keeps the shelter's records itself (standalone): what it imports is recorded here, not sent. */
  standalone?: boolean;
}

const invalid = (message: string) => new DeskCallError({ code: 'invalid_input', message });

/** Runs `work`, turning a file or mapping the import cannot use into an error the person can act on. */
async function asDeskErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ImportSetupError || error instanceof UnreadableFileError)
      throw invalid(error.message);
    throw error;
  }
}

/**
 * `import.*` (issue #33): files staged in the data folder (uploaded by the window in pieces, or copied by the
 * command line), previewed, checked and imported into this connection's mirror through its outbox.
 */
export function registerImportHandlers(
  registry: HandlerTable,
  context: DeskContext,
  mirror: Mirror,
  outbox: DeskOutbox,
  options: ImportHandlerOptions = {},
): void {
  const desk = (kind: ImportKind): ImportDesk => {
    const statusLabels = new Map<string, string>();
    for (const label of [...listPetStatuses(mirror.db), ...(options.customStatusLabels?.() ?? [])]) {
      statusLabels.set(headerKey(label), label);
    }
    return {
      db: mirror.db,
      customFields: getCustomFields(
        mirror.db,
        kind === 'pets' ? 'pet' : kind === 'adopters' ? 'adopter' : 'foster',
      ).fields,
      statusLabels,
      writeBatch: (write) => outbox.outbox.writeBatch(write),
      today: localToday(),
      now: Date.now,
      standalone: options.standalone === true,
    };
  };
  const staged = (token: string) => {
    const found = findStaged(context.dataDir, token);
    if (!found) throw invalid('That file is no longer staged for import: choose it again.');
    return found;
  };
  const preview = async (token: string, kind: ImportKind, sheet: string | undefined) => {
    const file = staged(token);
    return {
      token,
      fileName: file.fileName,
      ...(await asDeskErrors(() => previewFile(file.file, { kind, sheet }, desk(kind)))),
    };
  };

  registry.handle('import.upload', async (input) => {
    const token = input.token ?? beginStaged(context.dataDir, input.fileName).token;
    if (input.token) staged(input.token);
    const bytes = appendStaged(context.dataDir, token, Buffer.from(input.base64, 'base64'));
    return { token, bytes, preview: input.done ? await preview(token, input.kind, input.sheet) : null };
  });
  registry.handle('import.preview', (input) => preview(input.token, input.kind, input.sheet));
  registry.handle('import.check', (input) =>
    asDeskErrors(() => importFile(staged(input.token).file, { ...input, dryRun: true }, desk(input.kind))),
  );
  registry.handle('import.run', (input) =>
    asDeskErrors(() => importFile(staged(input.token).file, { ...input, dryRun: false }, desk(input.kind))),
  );
  registry.handle('import.rejectedRows', (input) =>
    asDeskErrors(async () => {
      const file = staged(input.token);
      const { rejected } = await importFile(file.file, { ...input, dryRun: true }, desk(input.kind));
      return {
        fileName: rejectedRowsFileName(file.fileName),
        ...(await rejectedRowsCsv(file.file, input.sheet, rejected)),
      };
    }),
  );
  registry.handle('import.discard', (input) => ({ removed: discardStaged(context.dataDir, input.token) }));
}
