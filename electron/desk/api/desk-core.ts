import fs from 'node:fs';
import type { DeskMode } from '../../../shared/desk-api';
import { type Logger, noopLogger } from '../../platform/log';
import { FileSecretStore, type SecretStore } from '../../platform/secret-store';
import type { ApiClientOptions } from '../client';
import { PhotoCache, photoCacheDir } from '../photos';
import { ConnectionManager } from '../sync';
import type { DeskContext } from './desk-context';
import { createEventHub, type EventHub } from './event-hub';
import { createHandlerRegistry, type HandlerRegistry } from './handler-registry';
import { registerAppHandlers } from './handlers/app';
import { registerConnectionHandlers } from './handlers/connection';
import { registerDraftHandlers } from './handlers/drafts';
import { registerPeopleHandlers } from './handlers/people';
import { photoExtensionProbe, registerPhotoHandlers } from './handlers/photos';
import { registerSettingsHandlers } from './handlers/settings';
import { registerShelterHandlers } from './handlers/shelter';
import { ShelterHost } from './handlers/shelter-host';
import { registerStatusHandlers } from './handlers/status';
import { DeskSessions } from './sessions';
import { openSettingsStore } from './settings-store';
import { createStatusHub, type StatusHub } from './status-hub';
import { WindowActivity } from './window-activity';

export interface DeskCoreOptions {
  /** The desk's data folder (created if missing): settings, secrets, databases. */
  dataDir: string;
  /** Default: a `FileSecretStore` in the data folder (the desktop app passes its safeStorage one). */
  secretStore?: SecretStore;
  /** Default 'browser' (headless); Electron's main passes 'desktop'. */
  mode?: DeskMode;
  modeReason?: string;
  appVersion: string;
  shellVersions?: DeskContext['shellVersions'];
  /** Request ids and sync and outbox outcomes (never keys or personal data). Default: none. */
  log?: Logger;
  /**
   * Start the services at once (default true: the app). The CLI passes false and calls handlers one at a time:
   * no sync schedule, no background replay.
   */
  start?: boolean;
  /** How much the mirror is checked at open (default `quick`; short CLI commands pass `marker`). */
  integrityCheck?: 'quick' | 'marker';
  /** Bounds of the sync's API client (the CLI's --request-deadline and --max-response-mb). */
  syncClient?: Pick<ApiClientOptions, 'deadlineMs' | 'maxResponseBytes'>;
}

export interface DeskCore {
  registry: HandlerRegistry;
  events: EventHub;
  status: StatusHub;
  context: DeskContext;
  /** Starts the services (sync schedule, background replay). Safe to call twice; `createDeskCore` calls it unless told not to. */
  start(): Promise<void>;
  /** Closes every feature (reverse order of opening). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Creates the desk's core, the same under Electron, plain Node and the CLI: opens the data folder, the settings and
 * the secret store, and registers every feature's handlers; registering starts nothing (features put what runs in
 * the background behind `context.onStart`), then `start()` starts it unless `options.start` is false. To add a
 * feature, write `handlers/<feature>.ts` with `register<Feature>Handlers(registry, context)` and add one line below.
 * Fails if a method declared in `shared/desk-api` has no handler.
 */
export async function createDeskCore(options: DeskCoreOptions): Promise<DeskCore> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const events = createEventHub();
  const status = createStatusHub(events);
  const windowActivity = new WindowActivity();
  const registry = createHandlerRegistry({ onTransportCall: (name) => windowActivity.noteCall(name) });
  const cleanups: Array<() => void | Promise<void>> = [];
  const starts: Array<() => void | Promise<void>> = [];
  const context: DeskContext = {
    dataDir: options.dataDir,
    mode: options.mode ?? 'browser',
    modeReason: options.modeReason,
    appVersion: options.appVersion,
    shellVersions: options.shellVersions ?? {},
    secretStore: options.secretStore ?? new FileSecretStore(options.dataDir),
    log: options.log ?? noopLogger,
    settings: openSettingsStore(options.dataDir),
    events,
    status,
    windowActivity,
    onClose: (cleanup) => {
      cleanups.push(cleanup);
    },
    onStart: (start) => {
      starts.push(start);
    },
  };

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing ??= (async () => {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error('A desk feature failed to close cleanly', error);
        }
      }
    })();
    return closing;
  }

  let starting: Promise<void> | undefined;
  function start(): Promise<void> {
    starting ??= (async () => {
      for (const run of starts) await run();
    })();
    return starting;
  }

  try {
    registerAppHandlers(registry, context);
    registerSettingsHandlers(registry, context);
    registerDraftHandlers(registry, context);
    registerStatusHandlers(registry, context);
    // Pet photos seen once stay on the desk: the screens and the kennel cards both read them offline.
    let connectionsForPhotos: ConnectionManager | undefined;
    const photos = new PhotoCache({
      dir: photoCacheDir(options.dataDir),
      currentServer: async () => {
        const connection = await connectionsForPhotos?.resolve();
        if (!connection) return undefined;
        return {
          origin: new URL(connection.baseUrl).origin,
          pin: 'pin' in connection ? connection.pin : undefined,
        };
      },
    });
    context.onClose(() => photos.close());
    // The standalone shelter (issue #12): runs the embedded server for the connection, closed after the sessions.
    const shelter = new ShelterHost(context);
    context.onClose(() => shelter.close());
    const connections = new ConnectionManager(context.dataDir, context.secretStore, shelter.start);
    connectionsForPhotos = connections;
    context.onClose(() => connections.close());
    // One session per connection (issue #13): the active one's mirror, outbox, sync, prints and figures.
    const sessions = await DeskSessions.open(context, connections, {
      shelter,
      loadPhoto: async (url) => (await photos.get(url)).bytes,
      keepPhoto: (url, bytes) => void photos.put(url, 'image/jpeg', bytes).catch(() => undefined),
      ...(options.integrityCheck && { integrityCheck: options.integrityCheck }),
      ...(options.syncClient && { syncClient: options.syncClient }),
    });
    context.onClose(() => sessions.close());
    registerPhotoHandlers(registry, photos, sessions, photoExtensionProbe(connections));
    context.onStart(() => sessions.start());
    sessions.forward(registry, await sessions.current());
    registerConnectionHandlers(registry, connections, sessions, {
      get: () => context.settings.get(),
      fill: (names) => {
        if (Object.keys(names).length === 0) return;
        try {
          const settings = context.settings.update(names);
          context.events.emit({ type: 'settings', settings });
        } catch {
          // A name longer than Settings keeps is not kept: the pairing itself went through.
        }
      },
    });
    registerShelterHandlers(registry, context, { host: shelter, connections, sessions });
    registerPeopleHandlers(registry, context, { host: shelter, connections, sessions });
  } catch (error) {
    await close();
    throw error;
  }

  const missing = registry.missing();
  if (missing.length > 0) {
    await close();
    throw new Error(`Desk methods without a handler: ${missing.join(', ')}. Register them in desk-core.ts.`);
  }
  const core: DeskCore = { registry, events, status, context, start, close };
  if (options.start !== false) await start();
  return core;
}
