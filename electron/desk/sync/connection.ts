import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/atomic-file';
import type { SecretStore } from '../../platform/secret-store';
import { httpsAddressOf, needsTlsCheck, normalizeBaseUrl, probeTls, type TlsProbe } from '../client';
import { MIRROR_FILE } from '../mirror/open-mirror';
import {
  connectionFolder,
  findMovedConnection,
  findPinnedConnection,
  hasPinnedConnection,
  type PinnedConnection,
  remoteConnectionId,
  STANDALONE_ID,
  touchConnectionFolder,
  UNCONFIGURED_ID,
} from './connection-folders';

/** Where the desk syncs: a remote server (hosted service or a shelter's own), or its own embedded server. */
export const connectionSettingsSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('remote'),
    remote: z.string(),
    /** SHA-256 of the shelter's certificate (base64url) from a pairing code: the only one accepted. */
    pin: z.string().optional(),
    /** The key came from pairing: a refused key means the shelter disconnected this desk. */
    paired: z.boolean().optional(),
    /**
     * The plain `http://` address this connection had before the shelter's LAN port moved to TLS and the desk moved
     * with it (`ConnectionManager.resolve`). Its folder stays the one named after that address, mirror and waiting
     * changes in it.
     */
    upgradedFrom: z.string().optional(),
    /**
     * Where the same shelter (the same pinned certificate) answered before its address changed, newest last: the
     * mirror filled there is this connection's. Its folder is still named after the first address (`upgradedFrom`).
     */
    formerAddresses: z.array(z.string()).optional(),
    /** The desk moved to TLS and the person has not said they read it (a notice above every screen until then). */
    tlsNotice: z.boolean().optional(),
  }),
  /** The embedded API on loopback, with its database in `<dataDir>/standalone/`. */
  z.object({ mode: z.literal('standalone'), port: z.number().int().min(0).max(65535).default(0) }),
]);
export type ConnectionSettings = z.infer<typeof connectionSettingsSchema>;

/** Secret names in the desk's SecretStore. Values are never logged or sent to the renderer. */
export const REMOTE_KEY_SECRET = 'sync.remote-api-key';
export const STANDALONE_KEY_SECRET = 'sync.standalone-write-key';
/** Each remote connection's own key, so the desk can switch back to a server without asking for it again. */
export function connectionKeySecret(id: string): string {
  return `sync.connection-key.${id}`;
}

/** File in the data folder holding the connection (without the key). */
export const CONNECTION_FILE = 'connection.json';

/**
 * How long a plain `http://` address that answered a TLS handshake without TLS is used without asking again: about
 * one poll, so the status's reachability checks every few seconds do not knock on an older server each time, while
 * a shelter updated meanwhile is found before the next poll sends its key.
 */
const PLAIN_RECHECK_MS = 60_000;

/** What a sync needs to talk to its server right now. */
export interface ResolvedConnection {
  mode: ConnectionSettings['mode'];
  baseUrl: string;
  apiKey: string;
  /** What the status shows as the remote (the address, or "standalone" with its loopback address). */
  label: string;
  /** The pinned certificate fingerprint of a paired shelter (every connection is checked against it). */
  pin?: string | undefined;
  /** The key came from pairing with a shelter. */
  paired?: boolean | undefined;
  /** The address this connection's mirror was filled from before it moved to TLS: the same server. */
  upgradedFrom?: string | undefined;
  /** Addresses the same shelter answered at before it moved: its mirror may have been filled there. */
  formerAddresses?: string[] | undefined;
}

/** Resolves the connection to use now; `recheckTls` after a 426 (see `ConnectionManager.resolve`). */
export type ResolveConnection = (options?: {
  recheckTls?: boolean;
}) => Promise<ResolvedConnection | undefined>;

/** Where `setRemote` would point the desk (see `ConnectionManager.planRemote`). */
export interface RemotePlan {
  remote: string;
  apiKey: string;
  /** The connection's folder id. */
  id: string;
  /**
   * A shelter that moved (to TLS, or to another address with the same certificate): the address naming its folder
   * when that is not `remote`, the certificate it pinned, and where it answered before.
   */
  moved?: MovedShelter | undefined;
}

export interface MovedShelter {
  upgradedFrom?: string | undefined;
  pin?: string | undefined;
  formerAddresses?: string[] | undefined;
}

/** How many earlier addresses of a moved shelter a connection remembers. */
const MAX_FORMER_ADDRESSES = 8;

/** How a remote connection is secured: a pinned certificate and a key of its own from pairing, or neither. */
export interface RemoteTrust {
  pin?: string | undefined;
  paired?: boolean | undefined;
}

/** The part of the embedded server the desk needs to run it in standalone mode. */
export type StartStandaloneServer = (options: {
  dataDir: string;
  port: number;
  writeKey: string;
}) => Promise<{ origin: string; close(): Promise<void> }>;

/** What the settings screen shows; the key itself never leaves the core. */
export interface ConnectionSummary {
  mode: 'none' | 'remote' | 'standalone';
  remote: string | null;
  hasKey: boolean;
  keyProtection: SecretStore['protection'];
  /** The pinned certificate's fingerprint (base64url) when paired with a shelter by code. */
  fingerprint: string | null;
  /** The desk moved this connection from plain HTTP to TLS by itself, and the person has not been told yet. */
  movedToTls: { from: string } | null;
}

/** A data folder's connection settings, or undefined when none are set (or the file is unreadable). */
export function readConnectionSettings(dataDir: string): ConnectionSettings | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, CONNECTION_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = connectionSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The folder id (under `connections/`) of connection settings: `standalone`, `unconfigured`, or the remote's. */
export function connectionIdOf(settings: ConnectionSettings | undefined): string {
  if (!settings) return UNCONFIGURED_ID;
  if (settings.mode === 'standalone') return STANDALONE_ID;
  // A connection that moved to TLS keeps the folder of its old address: no file moves, nothing to finish after a crash.
  return remoteConnectionId(settings.upgradedFrom ?? settings.remote);
}

/** The folder (`connections/<id>/`) of the connection a data folder is set to now: where its mirror lives. */
export function activeMirrorFolder(dataDir: string): string {
  return connectionFolder(dataDir, connectionIdOf(readConnectionSettings(dataDir)));
}

/** The mirror file of the connection a data folder is set to now. */
export function activeMirrorFile(dataDir: string): string {
  return path.join(activeMirrorFolder(dataDir), MIRROR_FILE);
}

/**
 * Reads and changes the connection settings of a data folder and resolves them into an address and key. In
 * standalone mode it starts the embedded server in-process (once) with a write key it provisions itself and keeps in
 * the secret store.
 */
export class ConnectionManager {
  private standalone: { origin: string; close(): Promise<void> } | undefined;
  private starting: Promise<{ origin: string; close(): Promise<void> }> | undefined;
  /** Plain `http://` addresses that answered a TLS handshake without TLS, and when. */
  private readonly plainAt = new Map<string, number>();
  /** Handshakes under way, one per address however many callers resolve at once. */
  private readonly probing = new Map<string, Promise<TlsProbe>>();

  constructor(
    private readonly dataDir: string,
    private readonly secrets: SecretStore,
    private readonly startServer?: StartStandaloneServer,
  ) {}

  private get filename(): string {
    return path.join(this.dataDir, CONNECTION_FILE);
  }

  /** The stored settings, or undefined when none are set (or the file is unreadable). */
  read(): ConnectionSettings | undefined {
    return readConnectionSettings(this.dataDir);
  }

  async summary(): Promise<ConnectionSummary> {
    const settings = this.read();
    const secret = settings?.mode === 'standalone' ? STANDALONE_KEY_SECRET : REMOTE_KEY_SECRET;
    return {
      mode: settings?.mode ?? 'none',
      remote:
        settings?.mode === 'remote' ? settings.remote : settings?.mode === 'standalone' ? 'standalone' : null,
      hasKey: settings ? (await this.secrets.get(secret)) !== undefined : false,
      keyProtection: this.secrets.protection,
      fingerprint: settings?.mode === 'remote' ? (settings.pin ?? null) : null,
      movedToTls:
        settings?.mode === 'remote' && settings.tlsNotice && settings.upgradedFrom
          ? { from: settings.upgradedFrom }
          : null,
    };
  }

  /**
   * Where `setRemote` would point the desk, without changing anything: the normalized address, the key (the one
   * given, else the one this desk last used with that server, else the stored one) and the connection's id.
   * @throws Error naming the problem (bad address, no key).
   */
  async planRemote(remote: string, apiKey?: string, pin?: string): Promise<RemotePlan> {
    const located = await this.locateRemote(remote, pin);
    const current = this.read();
    // The key a shelter gave this desk when it paired is for that shelter alone: another server gets its own.
    const pairedElsewhere =
      current?.mode === 'remote' &&
      (current.pin !== undefined || current.paired) &&
      located.id !== this.activeId();
    const key =
      apiKey?.trim() ||
      (await this.secrets.get(connectionKeySecret(located.id))) ||
      (pairedElsewhere ? undefined : await this.secrets.get(REMOTE_KEY_SECRET));
    if (!key && pairedElsewhere) {
      throw new Error(
        `This desk's key belongs to the shelter it is paired with, and ${located.remote} did not show that shelter's certificate. To connect there, paste its pairing code or enter its API key.`,
      );
    }
    if (!key) throw new Error('An API key is needed: copy it from the account settings of the server.');
    return { ...located, apiKey: key };
  }

  /**
   * Which connection an address is (see `planRemote`), key aside: `pin` is the certificate a pairing code names.
   * @throws Error when the address is not one.
   */
  async locateRemote(remote: string, pin?: string): Promise<Omit<RemotePlan, 'apiKey'>> {
    const current = this.read();
    let normalized = normalizeBaseUrl(remote);
    // A connection that moved to TLS, by its https address or its old http:// one, is that connection: https, its
    // pin, its folder. The one set now knows itself; another is found by its folder's note.
    const upgraded =
      current?.mode === 'remote' &&
      current.upgradedFrom &&
      (current.remote === normalized ||
        (current.upgradedFrom === normalized && normalized.startsWith('http://')))
        ? {
            remote: current.remote,
            upgradedFrom: current.upgradedFrom,
            pin: current.pin,
            formerAddresses: current.formerAddresses,
          }
        : findMovedConnection(this.dataDir, normalized);
    if (upgraded) normalized = upgraded.remote;
    const moved: MovedShelter | undefined =
      upgraded ?? (await this.sameShelterElsewhere(normalized, pin, current));
    const id = remoteConnectionId(moved?.upgradedFrom ?? normalized);
    return { remote: normalized, id, ...(moved && { moved }) };
  }

  /**
   * The shelter at `address` is one this desk is paired with, answering elsewhere since (its office PC got another
   * address, its port moved): the certificate the pairing code names, or else the one `address` shows now, is a
   * certificate this desk pinned. That connection goes on at the new address: its folder, pin, key and waiting
   * changes. Asks `address` for its certificate (a TLS handshake, nothing sent) only when it could match one.
   */
  private async sameShelterElsewhere(
    address: string,
    pin: string | undefined,
    current: ConnectionSettings | undefined,
  ): Promise<MovedShelter | undefined> {
    const known = (certificate: string): PinnedConnection | undefined =>
      current?.mode === 'remote' && current.pin === certificate
        ? {
            id: connectionIdOf(current),
            remote: current.remote,
            folderAddress: current.upgradedFrom ?? current.remote,
            pin: certificate,
            formerAddresses: current.formerAddresses ?? [],
          }
        : findPinnedConnection(this.dataDir, certificate);
    let seen = pin;
    if (seen === undefined) {
      const pinnedElsewhere =
        (current?.mode === 'remote' && current.pin !== undefined && current.remote !== address) ||
        hasPinnedConnection(this.dataDir);
      if (!pinnedElsewhere || !address.startsWith('https://')) return undefined;
      const probe = await probeTls(address);
      // Unanswered, it could be the paired shelter still starting: no folder is chosen for it blind.
      if (probe.kind === 'unreachable') {
        throw new Error(
          `Nothing answers at ${address} yet, so the desk cannot tell whether it is the shelter it is paired with. Check that the shelter desk is running and sharing on the network, then save again.`,
        );
      }
      if (probe.kind !== 'tls') return undefined;
      seen = probe.fingerprint;
    }
    const match = known(seen);
    if (!match || match.remote === address) return undefined;
    const formerAddresses = [...match.formerAddresses, match.remote]
      .filter((former, index, all) => former !== address && all.lastIndexOf(former) === index)
      .slice(-MAX_FORMER_ADDRESSES);
    return {
      ...(match.folderAddress !== address && { upgradedFrom: match.folderAddress }),
      pin: match.pin,
      formerAddresses,
    };
  }

  /**
   * Points the desk at a remote server. The key may be omitted to keep the one already stored.
   * @throws Error naming the problem (bad address, no key).
   */
  async setRemote(
    remote: string,
    apiKey?: string,
    trust: RemoteTrust = {},
    /** The plan already made for this change (`planRemote`): the shelter is looked for once, not again. */
    planned?: RemotePlan,
  ): Promise<void> {
    const plan = planned ?? (await this.planRemote(remote, apiKey, trust.pin));
    // A key typed again for the same paired shelter keeps its pin; a new pairing brings its own.
    const current = this.read();
    const same = current?.mode === 'remote' && current.remote === plan.remote;
    const kept =
      same && trust.pin === undefined
        ? { pin: current.pin ?? plan.moved?.pin, paired: current.paired && apiKey === undefined }
        : plan.moved && trust.pin === undefined
          ? { pin: plan.moved.pin, paired: apiKey === undefined }
          : trust;
    // A shelter that moved keeps the folder it had (see `planRemote`).
    const upgradedFrom = plan.moved?.upgradedFrom;
    const formerAddresses = plan.moved?.formerAddresses?.length ? plan.moved.formerAddresses : undefined;
    await this.secrets.set(REMOTE_KEY_SECRET, plan.apiKey);
    await this.secrets.set(connectionKeySecret(plan.id), plan.apiKey);
    await this.stopStandalone();
    const settings: ConnectionSettings = {
      mode: 'remote',
      remote: plan.remote,
      ...(kept.pin && { pin: kept.pin }),
      ...(kept.paired && { paired: true }),
      ...(upgradedFrom && { upgradedFrom }),
      ...(formerAddresses && { formerAddresses }),
    };
    writeFileAtomic(this.filename, `${JSON.stringify(settings, null, 2)}\n`, 0o600);
    touchConnectionFolder(this.dataDir, plan.id, {
      mode: 'remote',
      remote: plan.remote,
      ...(upgradedFrom && { upgradedFrom }),
      ...(kept.pin && { pin: kept.pin }),
      ...(formerAddresses && { formerAddresses }),
    });
  }

  /** The id of the connection configured now (its folder under `connections/`). */
  activeId(): string {
    return connectionIdOf(this.read());
  }

  /** Runs the desk on its own embedded server (a write key is provisioned on first use). */
  async setStandalone(port = 0): Promise<void> {
    writeFileAtomic(this.filename, `${JSON.stringify({ mode: 'standalone', port }, null, 2)}\n`, 0o600);
    touchConnectionFolder(this.dataDir, STANDALONE_ID, { mode: 'standalone', remote: null });
  }

  /** Forgets the connection and its key (its folder, mirror and waiting changes stay on the desk). */
  async clear(): Promise<void> {
    const settings = this.read();
    await this.stopStandalone();
    await this.secrets.delete(REMOTE_KEY_SECRET);
    if (settings?.mode === 'remote') await this.secrets.delete(connectionKeySecret(connectionIdOf(settings)));
    fs.rmSync(this.filename, { force: true });
  }

  /** The person has seen that the connection moved to TLS: Settings no longer says so. */
  acknowledgeTls(): void {
    const settings = this.read();
    if (settings?.mode !== 'remote' || !settings.tlsNotice) return;
    const { tlsNotice: _seen, ...rest } = settings;
    writeFileAtomic(this.filename, `${JSON.stringify(rest, null, 2)}\n`, 0o600);
  }

  /**
   * The address and key to sync with now, starting the embedded server in standalone mode; undefined if unset. A
   * plain `http://` address on another machine is first checked for TLS (`moveToTlsIfSpoken`); `recheckTls` checks
   * again at once (the server answered 426: it wants https).
   */
  async resolve(options: { recheckTls?: boolean } = {}): Promise<ResolvedConnection | undefined> {
    let settings = this.read();
    if (!settings) return undefined;
    if (settings.mode === 'remote') {
      const apiKey = await this.secrets.get(REMOTE_KEY_SECRET);
      if (!apiKey) return undefined;
      if (needsTlsCheck(settings.remote)) {
        await this.moveToTlsIfSpoken(settings.remote, options.recheckTls === true);
        settings = this.read();
        if (settings?.mode !== 'remote') return undefined;
      }
      return {
        mode: 'remote',
        baseUrl: settings.remote,
        apiKey,
        label: settings.remote,
        pin: settings.pin,
        paired: settings.paired,
        upgradedFrom: settings.upgradedFrom,
        formerAddresses: settings.formerAddresses,
      };
    }
    if (!this.startServer) throw new Error('Standalone mode is not available in this build.');
    let apiKey = await this.secrets.get(STANDALONE_KEY_SECRET);
    if (!apiKey) {
      apiKey = `sd_w_${randomBytes(24).toString('base64url')}`;
      await this.secrets.set(STANDALONE_KEY_SECRET, apiKey);
    }
    const key = apiKey;
    this.starting ??= this.startServer({
      dataDir: path.join(this.dataDir, 'standalone'),
      port: settings.port,
      writeKey: key,
    });
    try {
      this.standalone = await this.starting;
    } catch (error) {
      this.starting = undefined;
      throw error;
    }
    return {
      mode: 'standalone',
      baseUrl: this.standalone.origin,
      apiKey: key,
      label: `standalone (${this.standalone.origin})`,
    };
  }

  /**
   * Before the key goes to a plain `http://` address on another machine: a TLS handshake on the same port (no
   * request, no key). An updated shelter's LAN port answers it, and the desk moves to https there for good, trusting
   * the certificate it sees now and pinning its fingerprint (trust on first use). That first look cannot tell the
   * shelter from a machine in the middle that is already there; but the shared key this desk holds has crossed this
   * network in plain text for as long as the old setup ran, so the pin adds protection from now on and takes none
   * away. Any later certificate is refused, as for a paired desk. A port that answers without TLS (an older Shelter
   * Desk, another server) keeps being used over HTTP as before, and is asked again after `PLAIN_RECHECK_MS`.
   */
  private async moveToTlsIfSpoken(remote: string, now: boolean): Promise<void> {
    const plainAt = this.plainAt.get(remote);
    if (!now && plainAt !== undefined && Date.now() - plainAt < PLAIN_RECHECK_MS) return;
    let probing = this.probing.get(remote);
    if (!probing) {
      probing = probeTls(remote).finally(() => this.probing.delete(remote));
      this.probing.set(remote, probing);
    }
    const probe = await probing;
    if (probe.kind === 'plain') this.plainAt.set(remote, Date.now());
    if (probe.kind !== 'tls') return;
    // Concurrent callers saw the same answer: the first one moves, the others find it done.
    const current = this.read();
    if (current?.mode !== 'remote' || current.remote !== remote) return;
    const id = connectionIdOf(current);
    const moved: ConnectionSettings = {
      mode: 'remote',
      remote: normalizeBaseUrl(httpsAddressOf(remote)),
      pin: probe.fingerprint,
      // The shelter's key for this desk, as a pairing gives one: a 401 now means the shelter revoked it.
      paired: true,
      upgradedFrom: current.upgradedFrom ?? remote,
      ...(current.formerAddresses && { formerAddresses: current.formerAddresses }),
      tlsNotice: true,
    };
    // One atomic write: address, pin and folder change together or not at all.
    writeFileAtomic(this.filename, `${JSON.stringify(moved, null, 2)}\n`, 0o600);
    touchConnectionFolder(this.dataDir, id, {
      mode: 'remote',
      remote: moved.remote,
      upgradedFrom: moved.upgradedFrom,
      pin: moved.pin,
      formerAddresses: moved.formerAddresses,
    });
    this.plainAt.delete(remote);
  }

  private async stopStandalone(): Promise<void> {
    const running = this.standalone;
    this.standalone = undefined;
    this.starting = undefined;
    await running?.close();
  }

  /** Stops the embedded server if this manager started it. */
  async close(): Promise<void> {
    await this.stopStandalone();
  }
}
