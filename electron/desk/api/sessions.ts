import fs from 'node:fs';
import path from 'node:path';
import {
  type CarryProblem,
  type ConnectionInput,
  DeskCallError,
  type DeskMethodName,
  deskMethods,
} from '../../../shared/desk-api';
import { pendingRecordCount } from '../mirror';
import {
  CarryConflictError,
  carryUnconfigured,
  finishInterruptedCarry,
  UnfinishedCarryError,
} from '../outbox';
import {
  adoptLegacyMirror,
  adoptUnconfigured,
  type ConnectionManager,
  connectionFolder,
  FOLDER_FILE,
  STANDALONE_ID,
  UNCONFIGURED_ID,
} from '../sync';
import type { DeskContext } from './desk-context';
import type { HandlerRegistry } from './handler-registry';
import { type DeskSession, type DeskSessionOptions, openDeskSession } from './session';
import { WatchLeases } from './watch-leases';

/**
 * What a clashing row of each carried table is, and what settles it, for people (`record`: "pet “Rex”", the kind and
 * the name).
 */
const SAME_ID = {
  what: (record: string) => `its own ${record} under the same id`,
  todo: 'discard the one entered with no connection under Sync (enter it again here if it is still needed)',
};
const CLASHES: Record<string, { what: (record: string, field: string) => string; todo: string }> = {
  pet: SAME_ID,
  person: SAME_ID,
  local_edit: {
    what: (record) => `its own unsent edit of the ${record}`,
    todo: 'discard the edit made with no connection under Sync (make it again here if it is still needed)',
  },
  outbox_conflict: {
    what: (record, field) => `its own conflict notice about the ${field} of the ${record}`,
    todo: 'settle the notice kept with no connection under Sync',
  },
};

/**
 * A carry stopped by a clash, in words: which record (by name; its id is the detail), what clashed, that nothing was
 * moved, and what to do.
 */
export function carryClashProblem({ table, record }: CarryConflictError): CarryProblem {
  const kind = record.type === 'person' ? 'person' : 'pet';
  const named = `${kind} ${record.name ? `“${record.name}”` : record.id}`;
  const field = (record.field ?? 'a field').replaceAll('_', ' ');
  const clash = CLASHES[table] ?? {
    what: () => `its own copy of the ${named}`,
    todo: 'discard the one entered with no connection under Sync',
  };
  return {
    kind: 'clash',
    message:
      `This connection already has ${clash.what(named, field)}. Nothing was moved, so no change is lost: what was ` +
      'entered with no connection stays on this desk, shown while the desk has no connection. To bring it over, choose ' +
      `No connection under Settings, ${clash.todo}, then connect again.`,
    detail: `${kind === 'pet' ? 'Pet' : 'Person'} id ${record.id}`,
  };
}

/**
 * A desk started with no connection whose carry cut short cannot finish, in words: the rows shown are a copy of what
 * a connection took already, and what to do (why it cannot finish is the detail).
 */
export function unfinishedCarryProblem(error: UnfinishedCarryError): CarryProblem {
  return {
    kind: 'unfinished',
    message:
      `What was entered with no connection was already moved to ${connectionName(error.targetDir)}, but this desk ` +
      'could not finish the move; it tries again at every start. Anything from before that still shows here is a ' +
      'copy: changes made to it with no connection will be lost when the move finishes. Connect to that connection again to ' +
      'work on them.',
    detail: `Reason: ${error.reason}`,
  };
}

/** A connection's folder as people know it: its server's address, or Standalone. */
function connectionName(folder: string): string {
  try {
    const { mode, remote } = JSON.parse(fs.readFileSync(path.join(folder, FOLDER_FILE), 'utf8')) as {
      mode?: string;
      remote?: string | null;
    };
    if (mode === 'standalone') return 'Standalone';
    if (remote) return `the server ${remote}`;
  } catch {
    // An older folder without its note: named in general.
  }
  return 'the connection used before';
}

function warnUnfinishedCarry(context: DeskContext, error: Error): void {
  context.log.warn('an interrupted carry of changes entered with no connection cannot finish', {
    reason: error.message,
  });
}

/**
 * What was entered on this desk with no connection goes to the connection it has now, to be sent there: a
 * connection without a mirror yet takes the whole file, one with a mirror takes its records and waiting changes
 * (`carryUnconfigured`). Runs on a switch and at every start, so a switch cut short by a crash is finished. When it
 * cannot run now (the unconfigured mirror open in another process), the records stay where they are and are taken
 * at the next start or switch. A clash (`CarryConflictError`) moves nothing either; it, and a carry cut short that
 * cannot finish on a desk with no connection, are returned in words for the connection settings to show.
 */
async function bringUnconfigured(context: DeskContext, id: string): Promise<CarryProblem | undefined> {
  if (id === UNCONFIGURED_ID) {
    // A desk started with no connection after a carry was cut short: finished now if it can be (see `switchTo`).
    try {
      await finishInterruptedCarry(connectionFolder(context.dataDir, UNCONFIGURED_ID));
    } catch (error) {
      warnUnfinishedCarry(context, error as Error);
      if (error instanceof UnfinishedCarryError) {
        return unfinishedCarryProblem(error);
      }
    }
    return undefined;
  }
  try {
    await adoptUnconfigured(context.dataDir, id);
    const { carried } = await carryUnconfigured(
      connectionFolder(context.dataDir, UNCONFIGURED_ID),
      connectionFolder(context.dataDir, id),
    );
    if (Object.values(carried).some((rows) => rows > 0)) {
      context.log.info('changes entered with no connection carried over', { to: id, ...carried });
    }
  } catch (error) {
    context.log.warn('changes entered with no connection not carried over yet', {
      to: id,
      reason: (error as Error).message,
    });
    if (error instanceof CarryConflictError) return carryClashProblem(error);
  }
  return undefined;
}

/** Method families answered by the active connection's session (the rest belong to the core). */
const SESSION_PREFIXES = ['mirror.', 'outbox.', 'print.', 'dashboard.', 'sync.', 'import.'] as const;
const CORE_METHODS = new Set<string>([
  'sync.connection.get',
  'sync.connection.set',
  'sync.connection.test',
  'sync.watch',
]);

export function isSessionMethod(name: string): boolean {
  return !CORE_METHODS.has(name) && SESSION_PREFIXES.some((prefix) => name.startsWith(prefix));
}

export type SessionFactory = Omit<DeskSessionOptions, 'id' | 'resolveConnection' | 'context'>;

/**
 * The desk's connections: one session open at a time (the configured connection's), the core's registry forwarding
 * the session methods to it, and the switch between connections. A switch closes the old session first (its sync
 * stopped and its outbox replay awaited, so exactly one session ever sends), then changes the settings, then opens
 * the new connection's session: its own mirror and outbox, as they were when the desk last used it.
 */
export class DeskSessions {
  private active: Promise<DeskSession>;
  private started = false;
  /** While a window shows the status, every session's sync service checks the server's reachability. */
  private readonly watchers = new WatchLeases({
    onChange: (watching) => {
      // No session (a switch that failed to open one): the next one opened is told (`reopen`).
      this.current().then(
        (session) => session.sync.service.watch(watching),
        () => undefined,
      );
    },
  });
  /** Calls and switches wait for a switch under way. */
  private switching: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly context: DeskContext,
    private readonly connections: ConnectionManager,
    private readonly factory: SessionFactory,
    first: DeskSession,
    /** Why the last carry to or from the active connection did not go through, for people; see `bringUnconfigured`. */
    private carryTrouble: CarryProblem | undefined,
  ) {
    this.active = Promise.resolve(first);
  }

  /** Why what was entered with no connection could not be moved (or cleared after a move), if it could not. */
  carryProblem(): CarryProblem | undefined {
    return this.carryTrouble;
  }

  /** Adopts an older desk's single mirror if there is one, then opens the configured connection's session. */
  static async open(
    context: DeskContext,
    connections: ConnectionManager,
    factory: SessionFactory,
  ): Promise<DeskSessions> {
    const id = connections.activeId();
    await adoptLegacyMirror(context.dataDir, id);
    const problem = await bringUnconfigured(context, id);
    const first = await DeskSessions.openSession(context, connections, factory, id);
    return new DeskSessions(context, connections, factory, first, problem);
  }

  private static openSession(
    context: DeskContext,
    connections: ConnectionManager,
    factory: SessionFactory,
    id: string,
  ): Promise<DeskSession> {
    return openDeskSession({
      ...factory,
      context,
      id,
      // The session talks only to its own connection: once the desk is set to another, it sends nothing more.
      resolveConnection: async (options) =>
        connections.activeId() === id ? connections.resolve(options) : undefined,
    });
  }

  /** The active session (after a switch under way). */
  current(): Promise<DeskSession> {
    return this.switching.then(() => this.active);
  }

  /** Registers, on the core's registry, every session method as a call to the active session's handler. */
  forward(registry: HandlerRegistry, session: DeskSession): void {
    for (const name of Object.keys(deskMethods) as DeskMethodName[]) {
      if (!isSessionMethod(name)) continue;
      if (!session.handlers.has(name)) continue;
      registry.handle(name, (async (input: unknown) => {
        const handler = (await this.current()).handlers.get(name);
        if (!handler) throw new DeskCallError({ code: 'unknown_method', message: `No handler for ${name}.` });
        return handler(input);
      }) as never);
    }
  }

  /**
   * A window shows the status (or no longer does): while any does, the active session's sync checks the server's
   * reachability, and each one opened later (see `WatchLeases`).
   */
  watch(watcher: string, visible: boolean): void {
    this.watchers.watch(watcher, visible);
  }

  async start(): Promise<void> {
    this.started = true;
    await (await this.current()).start();
  }

  /**
   * Changes the connection. Same connection (another port, a re-saved address): the session stays and syncs again.
   * Another one: the old session is closed (nothing lost: its mirror and waiting changes stay in its folder), the
   * settings change, and the new connection's session opens (and starts, if the core has). A refused change (bad
   * address, no key) leaves the old session as it was.
   */
  setConnection(input: ConnectionInput): Promise<DeskSession> {
    const run = this.switching.then(() => this.switchTo(input));
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async switchTo(input: ConnectionInput): Promise<DeskSession> {
    const { connections, context } = this;
    const old = await this.active;
    // One plan for the whole change: the shelter a pinned desk looks for at a new address is asked once.
    const plan =
      input.mode === 'remote'
        ? await connections.planRemote(input.remote, input.apiKey, input.pin)
        : undefined;
    const target = plan ? plan.id : input.mode === 'standalone' ? STANDALONE_ID : UNCONFIGURED_ID;
    const apply = async () => {
      if (input.mode === 'remote')
        await connections.setRemote(
          input.remote,
          input.apiKey,
          { pin: input.pin, paired: input.paired },
          plan,
        );
      else if (input.mode === 'standalone') await connections.setStandalone();
      else await connections.clear();
    };
    if (target === old.id) {
      await apply();
      old.sync.service.reconfigure();
      return old;
    }
    if (target === UNCONFIGURED_ID) await this.finishInterruptedCarry();
    await old.close();
    try {
      await apply();
    } catch (error) {
      this.active = this.reopen(old.id);
      await this.active;
      throw error;
    }
    this.carryTrouble = await bringUnconfigured(context, target);
    this.active = this.reopen(target);
    const session = await this.active;
    context.log.info('connection switched', { from: old.id, to: target });
    // Every screen shows the other connection's records now.
    const counts = session.outbox.outbox.counts();
    context.status.update({
      pending: pendingRecordCount(session.mirror.db),
      needsAttention: counts.needsAttention,
      toCheck: session.outbox.outbox.recordsToCheck(),
      error: null,
      message: null,
      progress: null,
    });
    context.events.emit({ type: 'outbox', counts, changed: [] });
    context.events.emit({
      type: 'mirror-changed',
      collections: ['pets', 'adopters', 'fosters', 'metadata'],
    });
    return session;
  }

  /**
   * Before the desk goes back to no connection: a carry to a connection that could not empty the unconfigured mirror
   * is finished first, or the switch is refused (an edit there of a row already carried would be lost).
   */
  private async finishInterruptedCarry(): Promise<void> {
    try {
      const finished = await finishInterruptedCarry(connectionFolder(this.context.dataDir, UNCONFIGURED_ID));
      if (finished)
        this.context.log.info('an interrupted carry of changes entered with no connection finished');
    } catch (error) {
      warnUnfinishedCarry(this.context, error as Error);
      throw new DeskCallError({
        code: 'unavailable',
        message: `The changes entered with no connection were moved to this connection, but this desk could not clear them from its no-connection folder (${error instanceof UnfinishedCarryError ? error.reason : (error as Error).message}). They are sent from this connection; stay on it and try again later.`,
      });
    }
  }

  private async reopen(id: string): Promise<DeskSession> {
    const session = await DeskSessions.openSession(this.context, this.connections, this.factory, id);
    if (this.started) await session.start();
    if (this.watchers.watching) session.sync.service.watch(true);
    return session;
  }

  async close(): Promise<void> {
    this.watchers.close();
    await this.switching;
    await (await this.active.catch(() => undefined))?.close();
  }
}
