import { isStorageError } from '../platform/database-integrity';
import type { Logger } from '../platform/log';
import { DESK_OWN_KEY_LABEL } from './domain/api-key-store';
import { AuthThrottle } from './domain/auth-throttle';
import { requestOrigin } from './domain/photo-addresses';
import { PHOTO_GRACE_MS } from './domain/photo-store';
import { DEFAULT_HOURLY_LIMITS, FixedWindowRateLimiter } from './domain/rate-limit';
import { ChangeFeed, type ChangeFeedOptions } from './http/change-feed';
import { createListener, type Listener, type TlsIdentity } from './http/listener';
import { announcedExtensions, createRequestListener } from './http/pipeline';
import { Router } from './http/route';
import { metadataRoutes } from './routes/metadata';
import { offListRoutes } from './routes/off-list';
import { openapiRoutes } from './routes/openapi';
import { changeStreamRoutes, pairingRoutes } from './routes/pairing';
import { peopleRoutes } from './routes/people';
import { petRoutes } from './routes/pets';
import { photoRoutes } from './routes/photos';
import { openServerContext, serverDatabasePath } from './server-context';
import { createStaffOperations, type StaffOperations } from './staff/staff-operations';

export type { StaffOperations } from './staff/staff-operations';

/** One step of warming the search facets after a start (the event loop is free between steps). */
const FACETS_WARM_STEP_MS = 8;

/** How often uploaded photos no pet names are looked for. */
const PHOTO_SWEEP_MS = 60 * 60 * 1000;

export { PAIRING_CODE_TTL_MS, pairedKeyName } from './domain/pairing-store';
export { CHANGE_STREAM_HEADER, CHANGE_STREAM_PATH } from './http/change-feed';
export type { TlsIdentity } from './http/listener';
export { serverDatabasePath } from './server-context';
export {
  BackupRefusedError,
  backupDatabase,
  dropStaged,
  type FolderHold,
  FolderInUseError,
  glanceAtBackup,
  holdServerFolder,
  type RestoredInfo,
  type StagedBackup,
  stageBackup,
  swapDatabaseFile,
  swapInStaged,
} from './staff/backup';
export { findShelterDatabaseDir, openStaffOperations, shelterFolderOf } from './staff/open-staff';
export { type ApplicationSummary, StaffOperationError } from './staff/staff-operations';
export {
  CERTIFICATE_FILE,
  certificateFingerprint,
  readShelterCertificate,
  type ShelterCertificate,
  shelterCertificate,
} from './tls/shelter-certificate';

export interface ApiServerOptions {
  /** Database at <dataDir>/server.sqlite (created if missing). */
  dataDir: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 = any free port. */
  port?: number;
  /** Replaces every per-endpoint hourly limit when set. */
  rateLimitPerHour?: number;
  /**
   * The key of the desk that runs this shelter (standalone): provisioned like `writeKey`, listed as the desk's own
   * and never revoked (every revocation would cut the desk off), and not held to the hourly limits, so the desk's own outbox (an import of hundreds of pets) reaches its server at once. Other keys stay
   * limited.
   */
  ownKey?: string;
  /** Provision these keys at start (stored hashed). */
  writeKey?: string;
  readKey?: string;
  /** Load the demo shelter when the database is empty. */
  demo?: boolean;
  /** Scale the demo's pets (benchmarks: 100_000). */
  demoPets?: number;
  /** Wrong API keys one client address may present before it must wait (default 10, see AuthThrottle). */
  failedKeyAllowance?: number;
  /** Clock injection for tests (ms since epoch); default Date.now. */
  now?: () => number;
  /** One line per request with its id (a standalone desk's core.log). */
  log?: Logger;
  /** How long an uploaded photo no pet names is kept (default PHOTO_GRACE_MS, 7 days). */
  photoGraceMs?: number;
  /**
   * The shelter's public address for photos (`npm run serve -- --public-url`), as a person typed it: set at the
   * start when it differs from the stored one (pets naming stored photos elsewhere are rewritten to it). A value
   * that is not an http(s) origin refuses the start with a message saying why.
   */
  photoPublicUrl?: string;
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP (`npm run serve -- --tls`). */
  tls?: TlsIdentity;
  /** The change stream's timings and bounds (tests shorten the heartbeat). */
  changeFeed?: ChangeFeedOptions;
  /** The shelter's name, read when a desk pairs (the standalone desk's setting; see `PairingCodes.shelterName`). */
  shelterName?: () => string;
}

export interface RunningApiServer {
  /** 'http://127.0.0.1:PORT' */
  origin: string;
  /** origin + '/api' */
  apiUrl: string;
  port: number;
  /** Present when the server had to create keys (none provisioned, none stored). */
  generatedKeys?: { write: string; read: string };
  /** What `photoPublicUrl` changed at the start (absent when it was not given). */
  photoPublicOrigin?: { origin: string; petsUpdated: number };
  /** The non-API staff operations, on the same database. */
  staff: StaffOperations;
  /** Settings changes whose pets are still being re-rendered in the background. */
  pendingRestamps(): number;
  /** Deletes the uploaded photos no pet has named for the grace period (also run hourly); returns how many. */
  sweepPhotos(): number;
  /** Resolves when the start-up work is done (the facets' first load) and no pet or person waits for a new stamp. */
  settled(): Promise<void>;
  /**
   * Serves the same API on one more address (LAN sharing binds the PC's LAN address); the extra listener
   * closes on its own `close()` or with the server.
   */
  listenAlso(host: string, port: number, options?: { tls?: TlsIdentity }): Promise<ExtraListener>;
  /** Desks listening on the change stream now. */
  changeStreams(): number;
  /** Stop accepting, finish in-flight requests, close the database. */
  close(): Promise<void>;
}

export interface ExtraListener {
  origin: string;
  port: number;
  close(): Promise<void>;
}

const originOf = (host: string, port: number, tls: boolean) =>
  `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Starts the embedded animal placement API (its contract: electron/server/API.md) on its own SQLite database.
 * Used by `npm run serve`, by the desktop app in standalone mode and in-process by tests and benchmarks.
 */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const now = options.now ?? Date.now;
  const app = await openServerContext(serverDatabasePath(options.dataDir), now);
  if (options.shelterName) app.pairing.shelterName = options.shelterName;
  try {
    const staff = createStaffOperations(app);
    if (options.writeKey && options.writeKey !== options.ownKey) {
      app.keys.provision(options.writeKey, 'write', 'provisioned write key');
    }
    const ownKeyId = options.ownKey
      ? app.keys.provision(options.ownKey, 'write', DESK_OWN_KEY_LABEL, { deskOwn: true })
      : undefined;
    if (options.readKey) app.keys.provision(options.readKey, 'read', 'provisioned read key');
    let generatedKeys: RunningApiServer['generatedKeys'];
    if (app.keys.activeCount === 0) {
      generatedKeys = {
        write: app.keys.create('write', 'generated write key').key,
        read: app.keys.create('read', 'generated read key').key,
      };
    }

    const override = options.rateLimitPerHour;
    const limiter = new FixedWindowRateLimiter(
      (endpoint) => override ?? DEFAULT_HOURLY_LIMITS[endpoint],
      (keyId) => keyId === ownKeyId,
    );
    let photoPublicOrigin: RunningApiServer['photoPublicOrigin'];
    if (options.photoPublicUrl !== undefined) {
      const change = staff.setPhotoPublicOrigin(options.photoPublicUrl);
      photoPublicOrigin = { origin: change.origin ?? '', petsUpdated: change.petsUpdated };
    }
    const router = new Router([
      ...metadataRoutes,
      ...petRoutes,
      ...peopleRoutes,
      ...photoRoutes,
      ...offListRoutes,
      ...openapiRoutes,
      ...pairingRoutes,
      ...changeStreamRoutes,
    ]);
    const changes = new ChangeFeed(app, options.changeFeed);
    const listener = createRequestListener(
      app,
      router,
      limiter,
      new AuthThrottle(options.failedKeyAllowance),
      options.log,
      changes,
      announcedExtensions(options),
    );
    // The demo's data (its pets, people and photos: a few hundred kB to parse) is loaded only for a demo.
    const demo = options.demo ? await import('./demo/load-demo') : undefined;
    const server = createListener(listener, options.tls);
    const host = options.host ?? '127.0.0.1';
    const port = await server.listen(options.port ?? 0, host);
    // Right after the listen and synchronously, so no request is served before it: the demo's photo addresses
    // need the port.
    if (demo) {
      try {
        demo.loadDemoShelter(app, staff, {
          pets: options.demoPets,
          photoOrigin:
            app.photoAddresses.publicOrigin() ??
            requestOrigin({
              scheme: options.tls ? 'https' : 'http',
              host: `${host.includes(':') ? `[${host}]` : host}:${port}`,
              localAddress: '127.0.0.1',
            }),
        });
      } catch (error) {
        void server.closeNow();
        throw error;
      }
    }
    const extras = new Set<Listener>();
    let closing: Promise<void> | undefined;
    // Warm the facets and list views now rather than on the first list or search (about a second on 100k pets),
    // in steps between requests.
    const warming = app.pets.facets
      .warmInSteps(
        FACETS_WARM_STEP_MS,
        () => closing !== undefined,
        () => app.backgroundTurns.next(),
      )
      .catch((error: unknown) => {
        // Damaged storage must not take the server down: the first request that needs it reports it (once).
        if (!isStorageError(error)) console.error(`[server] could not warm the search facets: ${error}`);
      });
    app.pets.restamps.holdUntil(warming);
    const sweepPhotos = () => app.photos.sweep(app.now(), options.photoGraceMs ?? PHOTO_GRACE_MS);
    const photoSweep = setInterval(() => {
      try {
        sweepPhotos();
      } catch (error) {
        // Tried again at the next sweep; a storage error is reported by the first request that meets it.
        if (!isStorageError(error)) console.error(`[server] could not sweep unused photos: ${error}`);
      }
    }, PHOTO_SWEEP_MS);
    photoSweep.unref();
    const origin = originOf(host, port, options.tls !== undefined);
    return {
      origin,
      apiUrl: `${origin}/api`,
      port,
      generatedKeys,
      ...(photoPublicOrigin && { photoPublicOrigin }),
      staff,
      pendingRestamps: () => app.pets.restamps.waiting,
      sweepPhotos,
      settled: async () => {
        await Promise.all([warming, app.pets.restamps.settled(), app.peopleRestamps.settled()]);
      },
      changeStreams: () => changes.size,
      async listenAlso(extraHost, extraPort, extraOptions = {}) {
        if (closing) throw new Error('The server is closing.');
        const extra = createListener(listener, extraOptions.tls);
        const bound = await extra.listen(extraPort, extraHost);
        extras.add(extra);
        let closed: Promise<void> | undefined;
        const extraOrigin = originOf(extraHost, bound, extraOptions.tls !== undefined);
        // The LAN address is the one other machines reach, on a configured port: photos uploaded meanwhile name it
        // unless the shelter set a public address.
        app.photoAddresses.lanOrigin = extraOrigin;
        return {
          origin: extraOrigin,
          port: bound,
          close() {
            if (app.photoAddresses.lanOrigin === extraOrigin) app.photoAddresses.lanOrigin = undefined;
            // At once: turning sharing off must not wait for another desk's keep-alive connections.
            closed ??= extra.closeNow().then(() => {
              extras.delete(extra);
            });
            return closed;
          },
        };
      },
      close() {
        closing ??= (async () => {
          clearInterval(photoSweep);
          // Streams never end by themselves: closed first, so the close does not wait out its grace for them.
          changes.closeAll();
          await Promise.all([server.close(), ...[...extras].map((extra) => extra.close())]);
          await app.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
