import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DeskCallError, type LanSharing } from '../../../../shared/desk-api';
import { writeFileAtomic } from '../../../platform/atomic-file';
import {
  BackupRefusedError,
  dropStaged,
  type FolderHold,
  FolderInUseError,
  glanceAtBackup,
  holdServerFolder,
  type RunningApiServer,
  type StaffOperations,
  type StagedBackup,
  serverDatabasePath,
  stageBackup,
  startApiServer,
  swapInStaged,
} from '../../../server';
import { CONNECTION_FILE, connectionSettingsSchema, type StartStandaloneServer } from '../../sync';
import type { DeskContext } from '../desk-context';
import {
  automaticBackupDue,
  backupFileName,
  backupFolder,
  listBackups,
  pruneAutomaticBackups,
} from './shelter-backups';
import { LanShare } from './shelter-lan';

/** The standalone shelter's own settings, beside the desk's: `<dataDir>/shelter.json`. */
const shelterFileSchema = z.object({
  demo: z.boolean().default(false),
  lan: z
    .object({ enabled: z.boolean().default(false), port: z.number().int().min(0).max(65535).default(8787) })
    .default({ enabled: false, port: 8787 }),
});
type ShelterFile = z.infer<typeof shelterFileSchema>;

/** Why a port cannot be listened on that another free one avoids: in use, reserved (Windows), gone. */
const PORT_REFUSALS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);

/**
 * `<dataDir>/shelter-api-port`: the port the shelter's API took when it last picked a free one, tried first at the
 * next start, so scripts on this PC keep its address across restarts. A file of its own: `shelter.json` is also
 * written by the command line (`share on|off`) while the desk runs.
 */
const apiPortFile = (dataDir: string) => path.join(dataDir, 'shelter-api-port');

function readApiPort(dataDir: string): number | undefined {
  try {
    const port = Number(fs.readFileSync(apiPortFile(dataDir), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  } catch {
    return undefined;
  }
}

function writeApiPort(dataDir: string, port: number): void {
  writeFileAtomic(apiPortFile(dataDir), `${port}\n`, 0o600);
}

/** How often a running desk looks at `shelter.json` for sharing turned on or off from the command line. */
const SHARE_FILE_CHECK_MS = 1000;
/** How often the desk checks whether the daily backup is due. */
const BACKUP_CHECK_MS = 60 * 60 * 1000;
const FIRST_BACKUP_CHECK_MS = 30_000;

/** A shelter's `shelter.json` (defaults when it is missing or unreadable). */
export function readShelterFile(dataDir: string): ShelterFile {
  try {
    const parsed = shelterFileSchema.safeParse(
      JSON.parse(fs.readFileSync(path.join(dataDir, 'shelter.json'), 'utf8')),
    );
    if (parsed.success) return parsed.data;
  } catch {}
  return shelterFileSchema.parse({});
}

/** Turns LAN sharing on or off in `shelter.json`; a desk running that shelter follows within a second. */
export function writeLanEnabled(dataDir: string, enabled: boolean): void {
  const file = readShelterFile(dataDir);
  writeFileAtomic(
    path.join(dataDir, 'shelter.json'),
    `${JSON.stringify({ ...file, lan: { ...file.lan, enabled } }, null, 2)}\n`,
    0o600,
  );
}

/**
 * `npm start -- --standalone [--demo] [--share-lan]`: makes a data folder a standalone shelter before the desk
 * starts, as the welcome screen's "Run this shelter here" / "Try the demo" do (and turns LAN sharing on). A folder
 * already standalone keeps its data.
 */
export function prepareStandaloneShelter(
  dataDir: string,
  options: { demo: boolean; shareLan?: boolean },
): void {
  const connectionFile = path.join(dataDir, CONNECTION_FILE);
  const current = connectionSettingsSchema.safeParse(
    (() => {
      try {
        return JSON.parse(fs.readFileSync(connectionFile, 'utf8'));
      } catch {
        return undefined;
      }
    })(),
  );
  if (current.success && current.data.mode === 'remote') {
    throw new Error(
      `${dataDir} belongs to a desk connected to ${current.data.remote}. Use another --data-dir for a standalone shelter.`,
    );
  }
  const shelterFile = path.join(dataDir, 'shelter.json');
  let existing: unknown = {};
  try {
    existing = JSON.parse(fs.readFileSync(shelterFile, 'utf8'));
  } catch {}
  const parsed = shelterFileSchema.safeParse(existing);
  const file = parsed.success ? parsed.data : shelterFileSchema.parse({});
  writeFileAtomic(
    shelterFile,
    `${JSON.stringify(
      {
        ...file,
        demo: file.demo || options.demo,
        lan: { ...file.lan, enabled: file.lan.enabled || options.shareLan === true },
      },
      null,
      2,
    )}\n`,
    0o600,
  );
  if (!current.success) {
    writeFileAtomic(connectionFile, `${JSON.stringify({ mode: 'standalone', port: 0 }, null, 2)}\n`, 0o600);
  }
}

function notStandalone(): DeskCallError {
  return new DeskCallError({
    code: 'not_standalone',
    message:
      'These settings belong to the shelter’s server. This desk is connected to it, so change them there.',
  });
}

/**
 * Runs the standalone shelter's embedded server for this desk: started through the connection (as its
 * `StartStandaloneServer`), restarted on restore, with LAN sharing as a second listener and a daily backup.
 * Holds the server's folder while it runs, so the command line cannot swap the database under it.
 */
export class ShelterHost {
  private server: RunningApiServer | undefined;
  private hold: FolderHold | undefined;
  private startOptions: Parameters<StartStandaloneServer>[0] | undefined;
  private boundPort: number | undefined;
  private readonly lan: LanShare;
  private backupTimer: NodeJS.Timeout | undefined;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly context: DeskContext,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.lan = new LanShare({
      dataDir: context.dataDir,
      serverDataDir: this.serverDataDir,
      env,
      server: () => this.server,
      staff: () => this.staff(),
      configuredPort: () => this.readFile().lan.port,
    });
  }

  private get filename(): string {
    return path.join(this.context.dataDir, 'shelter.json');
  }

  get serverDataDir(): string {
    return path.join(this.context.dataDir, 'standalone');
  }

  readFile(): ShelterFile {
    return readShelterFile(this.context.dataDir);
  }

  writeFile(patch: Partial<ShelterFile>): ShelterFile {
    const next = shelterFileSchema.parse({ ...this.readFile(), ...patch });
    writeFileAtomic(this.filename, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    return next;
  }

  /** The running server, if this desk is standalone and it has started. */
  get running(): RunningApiServer | undefined {
    return this.server;
  }

  /** The staff operations, or a clear refusal on a desk that does not run its shelter. */
  staff(): StaffOperations {
    if (!this.server) throw notStandalone();
    return this.server.staff;
  }

  /** Runs one lifecycle change at a time (start, restore, LAN, demo removal). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.busy.then(fn, fn);
    this.busy = next.catch(() => undefined);
    return next;
  }

  /** Given to the connection manager: starts the embedded server (once) and returns a stable handle. */
  readonly start: StartStandaloneServer = (options) =>
    this.serial(async () => {
      this.startOptions = options;
      if (!this.server) await this.startServer();
      const origin = (this.server as RunningApiServer).origin;
      return { origin, close: () => this.serial(() => this.stopServer()) };
    });

  private async startServer(): Promise<void> {
    const options = this.startOptions;
    if (!options) throw notStandalone();
    try {
      this.hold ??= holdServerFolder(options.dataDir);
    } catch (error) {
      if (!(error instanceof FolderInUseError)) throw error;
      // The sync that asked tries again by itself (see SyncService): once the other one stops, this desk serves.
      throw new FolderInUseError(
        `Another Shelter Desk${error.holder ? ` (process ${error.holder})` : ''} is running this shelter from the same folder, so this desk cannot open its records. Close that one: this desk tries again every few seconds.`,
        error.holder,
      );
    }
    const file = this.readFile();
    const start = (port: number) =>
      startApiServer({
        dataDir: options.dataDir,
        port,
        // The desk's own key: listed as such, never revoked, and not held to the hourly write limits of other keys.
        ownKey: options.writeKey,
        demo: file.demo,
        shelterName: () => this.context.settings.get().shelterName,
      });
    // Any free port was asked for: the one taken last time first, so the address stays the same across restarts.
    const remembered =
      options.port === 0 && this.boundPort === undefined ? readApiPort(this.context.dataDir) : undefined;
    try {
      try {
        this.server = await start(this.boundPort ?? remembered ?? options.port);
      } catch (error) {
        if (remembered === undefined || !PORT_REFUSALS.has((error as NodeJS.ErrnoException).code ?? ''))
          throw error;
        // Taken by another program meanwhile (or reserved by the system since): another free port, kept in its turn.
        this.server = await start(0);
      }
    } catch (error) {
      this.hold.release();
      this.hold = undefined;
      throw error;
    }
    this.boundPort = this.server.port;
    if (options.port === 0 && remembered !== this.server.port) {
      try {
        writeApiPort(this.context.dataDir, this.server.port);
      } catch (error) {
        // Only a convenience: the next start takes another free port.
        this.context.log.warn('could not note the API port', { error: (error as Error).message });
      }
    }
    if (file.lan.enabled) await this.lan.start();
    this.scheduleBackups();
    // `npm run cli -- share on|off` writes the file while the desk runs: the desk follows within a second.
    fs.watchFile(this.filename, { interval: SHARE_FILE_CHECK_MS }, this.followShareFile);
  }

  private readonly followShareFile = () => {
    const enabled = this.readFile().lan.enabled;
    if (this.server && enabled !== this.lan.open) void this.setLan(enabled).catch(() => undefined);
  };

  private async stopServer(options: { keepHold?: boolean } = {}): Promise<void> {
    clearTimeout(this.backupTimer);
    this.backupTimer = undefined;
    fs.unwatchFile(this.filename, this.followShareFile);
    await this.lan.stop({ keepProblem: true });
    const server = this.server;
    this.server = undefined;
    await server?.close();
    if (!options.keepHold) {
      this.hold?.release();
      this.hold = undefined;
      this.boundPort = undefined;
    }
  }

  private scheduleBackups(): void {
    clearTimeout(this.backupTimer);
    const check = (delay: number) => {
      this.backupTimer = setTimeout(() => {
        void this.automaticBackup().finally(() => {
          if (this.server) check(BACKUP_CHECK_MS);
        });
      }, delay);
      this.backupTimer.unref();
    };
    check(FIRST_BACKUP_CHECK_MS);
  }

  /** The daily backup: taken when the newest automatic one is a day old; keeps the last 14. */
  async automaticBackup(now = Date.now()): Promise<boolean> {
    const folder = backupFolder(this.context.dataDir);
    if (!this.server || !automaticBackupDue(folder, now)) return false;
    try {
      await this.server.staff.backup(path.join(folder, backupFileName('automatic', now)));
      pruneAutomaticBackups(folder);
      return true;
    } catch (error) {
      console.error('The daily backup of the shelter failed', error);
      return false;
    }
  }

  /** A backup now, while the server keeps serving. */
  async backupNow(): Promise<string> {
    const file = path.join(backupFolder(this.context.dataDir), backupFileName('manual', Date.now()));
    await this.staff().backup(file);
    return file;
  }

  listBackups() {
    return listBackups(backupFolder(this.context.dataDir));
  }

  /** `glanceAtBackup`: whether a file could be restored, said before the restore is confirmed. */
  checkBackup(file: string): { file: string; bytes: number; modifiedAt: string } {
    try {
      return { file, ...glanceAtBackup(file) };
    } catch (error) {
      if (error instanceof BackupRefusedError) {
        throw new DeskCallError({
          code: 'invalid_input',
          message: `${error.message} Check the path: the full path of a backup file, such as one in the backups folder shown above.`,
        });
      }
      throw error;
    }
  }

  /**
   * Replaces the shelter database by a backup: copies it beside the database and checks the copy while the server
   * serves (a damaged or foreign file is refused and nothing changes), stops the server (no more writes), swaps the
   * copy in while holding the folder, and starts the server again on the same port. Every record of the restored
   * file gets a new stamp (in the copy, before the swap; a backup from an older version after its migrations), so
   * connected desks pull the restored data.
   */
  restore(file: string): Promise<{ pets: number; people: number }> {
    return this.serial(async () => {
      if (!this.server) throw notStandalone();
      const database = serverDatabasePath(this.serverDataDir);
      let staged: StagedBackup;
      try {
        staged = await stageBackup(database, file);
      } catch (error) {
        if (error instanceof BackupRefusedError) {
          throw new DeskCallError({
            code: 'invalid_input',
            message: `${error.message} Nothing was changed.`,
          });
        }
        throw error;
      }
      try {
        await this.stopServer({ keepHold: true });
      } catch (error) {
        await dropStaged(staged);
        throw error;
      }
      let failure: unknown;
      let restamped = false;
      try {
        ({ restamped } = await swapInStaged(staged));
      } catch (error) {
        failure = error;
      }
      await this.startServer();
      if (failure) {
        throw new DeskCallError({
          code: 'internal_error',
          message: `The backup could not be put in place (${(failure as Error).message}); the shelter runs on its previous data.`,
        });
      }
      if (!restamped) await (this.server as RunningApiServer | undefined)?.staff.restampAll();
      return { pets: staged.pets, people: staged.people };
    });
  }

  /** Deletes the demo shelter (after a backup of it) and starts an empty one in its place. */
  removeDemo(): Promise<void> {
    return this.serial(async () => {
      if (!this.server) throw notStandalone();
      const file = path.join(backupFolder(this.context.dataDir), backupFileName('manual', Date.now()));
      await this.server.staff.backup(file);
      await this.stopServer({ keepHold: true });
      const database = serverDatabasePath(this.serverDataDir);
      for (const suffix of ['', '-wal', '-shm'])
        await fs.promises.rm(`${database}${suffix}`, { force: true });
      this.writeFile({ demo: false });
      await this.startServer();
    });
  }

  async lanState(): Promise<LanSharing> {
    return this.lan.state(this.readFile().lan.enabled);
  }

  setLan(enabled: boolean): Promise<LanSharing> {
    return this.serial(async () => {
      this.staff();
      if (this.readFile().lan.enabled !== enabled)
        this.writeFile({ lan: { ...this.readFile().lan, enabled } });
      if (enabled) await this.lan.start();
      else await this.lan.stop();
      return this.lanState();
    });
  }

  async newLanCode(): Promise<LanSharing> {
    this.staff();
    return this.lan.newCode(this.readFile().lan.enabled);
  }

  /** Stops the server if it runs (the desk is closing). */
  close(): Promise<void> {
    return this.serial(() => this.stopServer());
  }
}
