import { DeskCallError, type ShelterOverview } from '../../../../shared/desk-api';
import { clearServerData, mirrorIsEmpty } from '../../mirror';
import { type ConnectionManager, connectedToDemoShelter } from '../../sync';
import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';
import type { DeskSessions } from '../sessions';
import { AUTOMATIC_BACKUPS_KEPT, backupFolder } from './shelter-backups';
import { staffCall } from './shelter-errors';
import type { ShelterHost } from './shelter-host';
import { registerShelterSettingsHandlers } from './shelter-settings';

export interface ShelterDeps {
  host: ShelterHost;
  connections: ConnectionManager;
  /** The active connection's session (its mirror and sync). */
  sessions: DeskSessions;
}

/**
 * `shelter.*`: the standalone shelter run from this desk: first run, settings, staff decisions, API keys,
 * backups and LAN sharing. Every change goes through the embedded server's staff operations and is followed by
 * a sync, so this desk (like any other) sees it through the API.
 */
export function registerShelterHandlers(
  registry: HandlerRegistry,
  context: DeskContext,
  deps: ShelterDeps,
): void {
  const { host, connections, sessions } = deps;
  const sync = async () => (await sessions.current()).sync;
  /** Pulls what a staff change did, so the forms and lists follow at once. */
  const follow = async (metadata: boolean) => {
    await (await sync()).service.syncNow({ metadata });
  };

  async function overview(): Promise<ShelterOverview> {
    const { mode } = await connections.summary();
    // A standalone desk's server is started by the connection; asking for the overview starts it if needed, so
    // the address it reports is live.
    if (mode === 'standalone' && !host.running) await connections.resolve();
    return {
      role: mode,
      firstRun: mode === 'none' && mirrorIsEmpty((await sessions.current()).mirror.db),
      // Connected, the server says whether its records are the demo's (a Shelter Desk running the demo shelter).
      demo:
        mode === 'standalone'
          ? host.readFile().demo
          : mode === 'remote' && connectedToDemoShelter((await sessions.current()).mirror.db),
      apiUrl: mode === 'standalone' ? (host.running?.apiUrl ?? null) : null,
    };
  }

  registry.handle('shelter.overview', () => overview());
  registry.handle('shelter.setup', async ({ choice }) => {
    const { mode } = await connections.summary();
    if (mode !== 'none') {
      throw new DeskCallError({
        code: 'conflict',
        message: 'This desk is already set up. Change its connection under Settings.',
      });
    }
    host.writeFile({ demo: choice === 'demo' });
    await sessions.setConnection({ mode: 'standalone' });
    await connections.resolve();
    await follow(true);
    return overview();
  });
  registry.handle('shelter.demo.remove', async () => {
    if (!host.readFile().demo) {
      throw new DeskCallError({ code: 'conflict', message: 'This shelter does not hold the demo data.' });
    }
    await host.removeDemo();
    try {
      clearServerData((await sessions.current()).mirror.db);
    } catch (error) {
      throw new DeskCallError({ code: 'conflict', message: (error as Error).message });
    }
    await (await sync()).service.syncNow({ metadata: true, fullCheck: true });
    context.events.emit({ type: 'mirror-changed', collections: ['pets', 'adopters', 'fosters', 'metadata'] });
    return overview();
  });

  registerShelterSettingsHandlers(registry, host, follow);

  registry.handle('shelter.applications.list', (input) =>
    host.staff().listApplications(input?.status === undefined ? {} : { status: input.status }),
  );
  registry.handle('shelter.applications.counts', () => host.staff().countApplications());
  registry.handle('shelter.applications.decide', async ({ id, decision, note, petIds, personStatus }) => {
    const decided = staffCall(() =>
      host.staff().decideApplication(id, decision, {
        ...(note && { note }),
        ...(petIds && { petIds }),
        ...(personStatus && { personStatus }),
      }),
    );
    await follow(false);
    return decided;
  });
  registry.handle('shelter.people.setStatus', async ({ personId, status, notes }) => {
    const person = staffCall(() => host.staff().setPersonStatus(personId, status, notes || null));
    await follow(false);
    return person;
  });
  registry.handle('shelter.pets.delete', async ({ petId }) => {
    staffCall(() => host.staff().deletePet(petId));
    // The ordinary sync sees the deletion (the list total no longer matches) and marks the pet removed.
    await (await sync()).service.syncNow();
    return null;
  });

  registry.handle('shelter.keys.list', () =>
    host
      .staff()
      .listApiKeys()
      .map((key) => ({
        id: key.id,
        name: key.label,
        kind: key.access,
        prefix: key.keyPrefix,
        createdAt: key.createdAt,
        lastUsedAt: key.lastUsedAt,
        revokedAt: key.revokedAt,
        thisDesk: key.deskOwn,
      })),
  );
  registry.handle('shelter.keys.create', ({ kind, name }) => {
    const created = staffCall(() => host.staff().createApiKey(kind, name));
    return { id: created.id, key: created.key, kind, name };
  });
  registry.handle('shelter.keys.revoke', ({ id }) => {
    const revocation = host.staff().revokeApiKey(id);
    if (revocation === 'desk-own') {
      throw new DeskCallError({
        code: 'invalid_input',
        message: 'This is the key this desk uses for its own shelter; revoking it would cut the desk off.',
      });
    }
    if (revocation === 'unknown') {
      throw new DeskCallError({
        code: 'not_found',
        message: 'No active key with that id (already revoked?).',
      });
    }
    return null;
  });

  registry.handle('shelter.backups.list', () => ({
    folder: backupFolder(context.dataDir),
    backups: host.listBackups(),
    keep: AUTOMATIC_BACKUPS_KEPT,
  }));
  registry.handle('shelter.backups.create', async () => {
    const file = await host.backupNow();
    const entry = host.listBackups().find((backup) => backup.file === file);
    if (!entry)
      throw new DeskCallError({ code: 'internal_error', message: `The backup ${file} is missing.` });
    return entry;
  });
  registry.handle('shelter.backups.check', ({ file }) => host.checkBackup(file));
  registry.handle('shelter.backups.restore', async ({ file }) => {
    context.events.emit({ type: 'restore', running: true });
    try {
      const restored = await host.restore(file);
      // The restore is done once the server serves the restored database. This desk then pulls it in the
      // background with its usual progress (minutes on a large shelter); other desks see every record re-stamped on
      // their next sync.
      void (await sync()).service.syncNow({ metadata: true, fullCheck: true });
      return restored;
    } finally {
      context.events.emit({ type: 'restore', running: false });
    }
  });

  registry.handle('shelter.lan.get', () => host.lanState());
  registry.handle('shelter.lan.set', ({ enabled }) => host.setLan(enabled));
  registry.handle('shelter.lan.newCode', () => host.newLanCode());
}
