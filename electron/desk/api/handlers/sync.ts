import { DeskCallError } from '../../../../shared/desk-api';
import type { Mirror } from '../../mirror';
import {
  ConnectionManager,
  type StartStandaloneServer,
  type SyncHooks,
  type SyncRunSummary,
  SyncService,
  type SyncServiceOptions,
} from '../../sync';
import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';
import { standaloneServer } from '../standalone';

export interface DeskSync {
  service: SyncService;
  connections: ConnectionManager;
}

/**
 * `sync.*`: connection settings (the key stays in the secret store) and sync on demand. When the core starts, the
 * sync service starts: a pull now, then every minute while online, with status and progress through the status hub.
 */
export function registerSyncHandlers(
  registry: HandlerRegistry,
  context: DeskContext,
  mirror: Mirror,
  options: {
    hooks?: SyncHooks;
    service?: Partial<SyncServiceOptions>;
    /** Runs the standalone server (the shelter host); default: a plain embedded server. */
    startServer?: StartStandaloneServer;
  } = {},
): DeskSync {
  const connections = new ConnectionManager(
    context.dataDir,
    context.secretStore,
    options.startServer ?? standaloneServer(context.log),
  );
  const service = new SyncService({
    ...options.service,
    db: mirror.db,
    resolveConnection: () => connections.resolve(),
    status: context.status,
    log: context.log,
    ...(options.hooks && { hooks: options.hooks }),
    onMirrorChanged: (summary) => {
      // Pulls and removal checks (records marked unlisted or removed) both change what the lists show.
      const collections = [
        ...new Set([
          ...summary.lists.filter((list) => list.written > 0).map((list) => list.collection),
          ...summary.removals.filter((check) => check.written > 0).map((check) => check.collection),
        ]),
      ];
      context.events.emit({
        type: 'mirror-changed',
        collections: summary.metadataChanged.length > 0 ? [...collections, 'metadata' as const] : collections,
      });
    },
  });
  context.onClose(async () => {
    await service.stop();
    await connections.close();
  });

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
  registry.handle('sync.connection.get', () => connections.summary());
  registry.handle('sync.connection.set', async (input) => {
    try {
      if (input.mode === 'remote') await connections.setRemote(input.remote, input.apiKey);
      else if (input.mode === 'standalone') await connections.setStandalone();
      else await connections.clear();
    } catch (error) {
      throw new DeskCallError({ code: 'invalid_input', message: (error as Error).message });
    }
    service.reconfigure();
    return connections.summary();
  });
  context.onStart(() => service.start());
  return { service, connections };
}
