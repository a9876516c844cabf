import type { Mirror } from '../../mirror';
import {
  type ResolveConnection,
  reconcileWrites,
  type SyncHooks,
  type SyncRunSummary,
  SyncService,
  type SyncServiceOptions,
} from '../../sync';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';

export interface DeskSync {
  service: SyncService;
  /** This session's connection (undefined when the desk is set to another one or none). */
  resolve: ResolveConnection;
}

/**
 * `sync.*` of one connection's session: sync on demand, the full check, network hints. When the session starts, its
 * sync service starts: a pull now, then every minute while online, with status and progress through the status hub.
 * The connection settings themselves (`sync.connection.*`) belong to the core: see `connection.ts`.
 */
export function registerSyncHandlers(
  registry: HandlerTable,
  context: DeskContext,
  mirror: Mirror,
  options: {
    /** The session's connection: resolves only while it is the one configured. */
    resolveConnection: ResolveConnection;
    hooks?: SyncHooks;
    service?: Partial<SyncServiceOptions>;
  },
): DeskSync {
  const service = new SyncService({
    ...options.service,
    clientOptions: {
      ...options.service?.clientOptions,
      beforeRead: (signal) => context.windowActivity.pause(signal),
    },
    db: mirror.db,
    resolveConnection: options.resolveConnection,
    status: context.status,
    log: context.log,
    ...(options.hooks && { hooks: options.hooks }),
    onMirrorChanged: (summary) => {
      // Pulls, removal checks and records asked about by id (marked unlisted or removed, or stored anew) all change
      // what the lists show.
      const collections = [
        ...new Set([
          ...summary.lists.filter((list) => list.written > 0).map((list) => list.collection),
          ...summary.removals.filter((check) => check.written > 0).map((check) => check.collection),
          ...summary.reconciled.filter((part) => reconcileWrites(part) > 0).map((part) => part.collection),
        ]),
      ];
      context.events.emit({
        type: 'mirror-changed',
        collections: summary.metadataChanged.length > 0 ? [...collections, 'metadata' as const] : collections,
      });
    },
  });
  context.onClose(() => service.stop());

  registry.handle('sync.networkChanged', () => {
    service.networkChanged();
    return null;
  });
  const runResult = (summary: SyncRunSummary | undefined) => {
    if (!summary) return null;
    const { complete, requests, notModified, written, problems, durationMs } = summary;
    return { complete, requests, notModified, written, problems, durationMs };
  };
  registry.handle('sync.now', async (input) =>
    runResult(await (input?.full ? service.runFullCheck() : service.syncNow())),
  );
  registry.handle('sync.fullCheck.estimate', () => service.fullCheckEstimate());
  registry.handle('sync.fullCheck.start', async () => runResult(await service.runFullCheck()));
  registry.handle('sync.fullCheck.stop', () => ({ stopped: service.stopFullCheck() }));
  context.onStart(() => service.start());
  return { service, resolve: options.resolveConnection };
}
