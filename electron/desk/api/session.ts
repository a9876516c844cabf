import type { DeskMethodName } from '../../../shared/desk-api';
import type { ApiClientOptions } from '../client';
import type { Mirror } from '../mirror';
import { deskOnlyPhotosOf, deskPhoto, deskPhotoLocalId, deskPhotoRef, openDeskMirror } from '../outbox';
import { fetchPhoto, type LoadPhoto } from '../print';
import { connectionFolder, type ResolveConnection, STANDALONE_ID } from '../sync';
import type { DeskContext } from './desk-context';
import type { DeskHandler, HandlerTable } from './handler-registry';
import { registerDashboardHandlers } from './handlers/dashboard';
import { registerImportHandlers } from './handlers/import';
import { registerMirrorHandlers } from './handlers/mirror';
import { type DeskOutbox, registerOutboxHandlers } from './handlers/outbox';
import { registerPrintHandlers } from './handlers/print';
import { shelterApplications } from './handlers/shelter-applications';
import type { ShelterHost } from './handlers/shelter-host';
import { type DeskSync, registerSyncHandlers } from './handlers/sync';

/**
 * One connection's part of the desk: its mirror and outbox (`connections/<id>/mirror.sqlite`), the sync service
 * that talks only to that connection, and the handlers of `mirror.*`, `outbox.*`, `sync.*` (but the connection
 * settings), `print.*` and `dashboard.*` over them. The core keeps one session open, the active connection's.
 */
export interface DeskSession {
  id: string;
  mirror: Mirror;
  outbox: DeskOutbox;
  sync: DeskSync;
  /** The session's handlers by method name (the core's registry forwards to the active session's). */
  handlers: ReadonlyMap<DeskMethodName, (input: unknown) => unknown>;
  /** Starts its sync schedule and background replay. */
  start(): Promise<void>;
  /**
   * Stops it: the sync schedule, then the outbox (waiting for a replay under way, so nothing more is sent for this
   * connection), then closes the mirror. Safe to call twice.
   */
  close(): Promise<void>;
}

export interface DeskSessionOptions {
  context: DeskContext;
  id: string;
  /** The connection, while it is the one configured (undefined otherwise: the session then sends nothing). */
  resolveConnection: ResolveConnection;
  /** The standalone shelter: its session copies the shelter's applications into its mirror. */
  shelter: ShelterHost;
  loadPhoto?: LoadPhoto;
  /** Keeps a photo taken here under the address the server gave it (the desk's photo cache). */
  keepPhoto?: (url: string, bytes: Buffer) => void;
  integrityCheck?: 'quick' | 'marker';
  syncClient?: Pick<ApiClientOptions, 'deadlineMs' | 'maxResponseBytes'>;
}

/** Opens the session of connection `id`: its folder's mirror (created when new) and every feature over it. */
export async function openDeskSession(options: DeskSessionOptions): Promise<DeskSession> {
  const { id, context } = options;
  const cleanups: Array<() => void | Promise<void>> = [];
  const starts: Array<() => void | Promise<void>> = [];
  const sessionContext: DeskContext = {
    ...context,
    onClose: (cleanup) => {
      cleanups.push(cleanup);
    },
    onStart: (start) => {
      starts.push(start);
    },
  };
  const handlers = new Map<DeskMethodName, (input: unknown) => unknown>();
  const table: HandlerTable = {
    handle<M extends DeskMethodName>(name: M, handler: DeskHandler<M>) {
      if (handlers.has(name)) throw new Error(`Desk method ${name} already has a handler.`);
      handlers.set(name, handler as (input: unknown) => unknown);
    },
  };

  /** Stops the outbox first, so a sync run replaying it ends after the requests in flight. */
  let halt: (() => Promise<void>) | undefined;
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      const halting = halt?.();
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error(`The session of connection ${id} failed to close cleanly`, error);
        }
      }
      await halting;
    })();
    return closing;
  }
  let starting: Promise<void> | undefined;

  const mirror = await openDeskMirror({
    dataDir: connectionFolder(context.dataDir, id),
    ...(options.integrityCheck && { integrityCheck: options.integrityCheck }),
  });
  cleanups.push(() => mirror.close());
  // A standalone shelter's custom statuses that can be chosen: offered before any pet carries one (a status that
  // keeps pets off the public list would otherwise never reach the desk's menus).
  const customStatusLabels =
    id === STANDALONE_ID
      ? () => {
          try {
            return options.shelter
              .staff()
              .listCustomStatuses()
              .filter((status) => status.isActive)
              .map((status) => status.label);
          } catch {
            // The shelter's server is not running (a command line): the statuses in use still match.
            return [];
          }
        }
      : undefined;
  try {
    registerMirrorHandlers(table, sessionContext, mirror, customStatusLabels);
    // Only the standalone shelter's session reads the shelter's applications (the API lists none).
    const applications =
      id === STANDALONE_ID ? shelterApplications(options.shelter, mirror, context.log) : undefined;
    // Cards print the photos taken here from the mirror, before (or without) the server having them.
    const loadPhoto = options.loadPhoto;
    registerPrintHandlers(table, sessionContext, mirror, {
      loadPhoto: async (url) => {
        const localId = deskPhotoLocalId(url);
        if (localId) return deskPhoto(mirror.db, localId)?.bytes;
        return (loadPhoto ?? fetchPhoto)(url);
      },
      deskPhotos: (petId) => deskOnlyPhotosOf(mirror.db, petId).map((photo) => deskPhotoRef(photo.local_id)),
      ...(applications && { refreshApplications: () => void applications.refresh() }),
    });
    registerDashboardHandlers(table, sessionContext, mirror);
    // Outbox (issue #5): local writes, replayed by every sync run first and, once started, after each write.
    const outbox = registerOutboxHandlers(table, sessionContext, mirror, options.keepPhoto);
    const sync = registerSyncHandlers(table, sessionContext, mirror, {
      resolveConnection: options.resolveConnection,
      hooks: {
        push: async (run) => {
          const pushed = await outbox.hooks.push(run);
          // Every run of a standalone desk also reads its shelter's applications.
          applications?.refresh();
          return pushed;
        },
        ...(outbox.hooks.movedToTls && { movedToTls: outbox.hooks.movedToTls }),
        reconnected: outbox.hooks.reconnected,
      },
      ...(options.syncClient && { service: { clientOptions: options.syncClient } }),
    });
    outbox.attach(sync);
    // Import (issue #33): files read into this connection's mirror through its outbox.
    registerImportHandlers(table, sessionContext, mirror, outbox, {
      ...(customStatusLabels && { customStatusLabels }),
      standalone: id === STANDALONE_ID,
    });
    halt = () => outbox.outbox.close();
    return {
      id,
      mirror,
      outbox,
      sync,
      handlers,
      start() {
        starting ??= (async () => {
          for (const run of starts) await run();
        })();
        return starting;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
