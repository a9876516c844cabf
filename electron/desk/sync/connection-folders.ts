import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { writeFileAtomic } from '../../platform/atomic-file';
import { holdDatabaseExclusively } from '../../platform/database-lock';
import { otherProcessesUsing } from '../../platform/write-lock';
import { MIRROR_FILE } from '../mirror/open-mirror';

/**
 * Each connection of a desk (every remote server and key, and the standalone shelter) keeps its own mirror and
 * outbox in `<dataDir>/connections/<id>/mirror.sqlite`, so switching connections never mixes or drops records: the
 * changes still waiting stay with their connection and are sent when the desk switches back.
 */
export const CONNECTIONS_DIR = 'connections';
/** The standalone shelter of this data folder (its server database stays in `<dataDir>/standalone/`). */
export const STANDALONE_ID = 'standalone';
/** A desk with no connection yet: what is entered there goes with the first connection set. */
export const UNCONFIGURED_ID = 'unconfigured';
/** Beside each connection's mirror: which connection it is, for people looking at the folder. */
export const FOLDER_FILE = 'connection.json';

/**
 * A remote connection's id, from the server's address (hashed into a folder name). A new key for the same server is
 * the same connection: a key replaced after the server refused it sends the changes that waited for it.
 */
export function remoteConnectionId(remote: string): string {
  return `remote-${createHash('sha256').update(remote).digest('hex').slice(0, 16)}`;
}

export function connectionFolder(dataDir: string, id: string): string {
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`Not a connection id: ${JSON.stringify(id)}.`);
  return path.join(dataDir, CONNECTIONS_DIR, id);
}

/** What a connection's folder notes about it (for people, and to find a shelter that moved to TLS or elsewhere). */
export interface FolderInfo {
  mode: 'remote' | 'standalone';
  remote: string | null;
  /** The address its folder is named after, when the shelter answers elsewhere now (TLS, another port or machine). */
  upgradedFrom?: string | undefined;
  /** The certificate it pinned: the shelter is known by it at any address. */
  pin?: string | undefined;
  /** Where the same shelter answered before it moved, newest last. */
  formerAddresses?: string[] | undefined;
}

/** Notes in a connection's folder what it belongs to and that it was used now. */
export function touchConnectionFolder(dataDir: string, id: string, info: FolderInfo): void {
  const folder = connectionFolder(dataDir, id);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const record = { ...info, lastUsedAt: new Date().toISOString() };
  writeFileAtomic(path.join(folder, FOLDER_FILE), `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

/** Whether a connection's folder already holds a mirror. */
export function hasMirror(dataDir: string, id: string): boolean {
  return fs.existsSync(path.join(connectionFolder(dataDir, id), MIRROR_FILE));
}

/**
 * Moves a mirror (with its write-ahead log, which holds committed changes) to another connection's folder. Used once
 * for the single mirror of older versions (`<dataDir>/mirror.sqlite`) and when a desk without connection gets its
 * first one. The log is folded into the file first when it can be; it is moved before the file, so a crash between
 * the two renames is finished by the next start. A damaged file is moved all the same: the mirror's check at open
 * then refuses it where it now lives, with the way out.
 */
async function moveMirror(source: string, target: string): Promise<void> {
  await holdDatabaseExclusively(source, 'moved to its connection folder', () => {
    if (!fs.existsSync(source) || fs.existsSync(target)) return;
    const users = otherProcessesUsing(source);
    if (users.length > 0) {
      throw new Error(
        `${source} is open in ${users.join(', ')}. Close the desk app and stop other commands on this folder, then start again.`,
      );
    }
    try {
      const sqlite = new Database(source, { fileMustExist: true, timeout: 10_000 });
      try {
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        sqlite.close();
      }
    } catch {
      // Unreadable: moved as it is, log included.
    }
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    if (fs.existsSync(`${source}-wal`)) fs.renameSync(`${source}-wal`, `${target}-wal`);
    fs.rmSync(`${source}-shm`, { force: true });
    fs.renameSync(source, target);
  });
}

/**
 * The one-time move of an older desk's single mirror (`<dataDir>/mirror.sqlite`) into the folder of the connection
 * that is configured. Does nothing when there is none or that folder already holds a mirror (then the old file stays
 * where it is, untouched, and is never opened).
 */
export async function adoptLegacyMirror(dataDir: string, activeId: string): Promise<void> {
  const legacy = path.join(dataDir, MIRROR_FILE);
  if (!fs.existsSync(legacy) || hasMirror(dataDir, activeId)) return;
  await moveMirror(legacy, path.join(connectionFolder(dataDir, activeId), MIRROR_FILE));
}

/**
 * A connection with no mirror yet takes the whole unconfigured folder's mirror (what was entered with no connection)
 * by moving the file, so those changes are sent to it. A connection with a mirror takes its records instead
 * (`carryUnconfigured` in the outbox).
 */
export async function adoptUnconfigured(dataDir: string, id: string): Promise<void> {
  if (id === UNCONFIGURED_ID || hasMirror(dataDir, id)) return;
  const source = path.join(connectionFolder(dataDir, UNCONFIGURED_ID), MIRROR_FILE);
  await moveMirror(source, path.join(connectionFolder(dataDir, id), MIRROR_FILE));
}

/** A connection known by its pinned certificate (see `findPinnedConnection`). */
export interface PinnedConnection {
  id: string;
  remote: string;
  /** The address its folder is named after. */
  folderAddress: string;
  pin: string;
  formerAddresses: string[];
}

/** Every remote connection's folder note that parses, with the folder's name. */
function folderNotes(dataDir: string): Array<{ name: string; note: Partial<FolderInfo> }> {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dataDir, CONNECTIONS_DIR));
  } catch {
    return [];
  }
  const notes: Array<{ name: string; note: Partial<FolderInfo> }> = [];
  for (const name of names) {
    if (!name.startsWith('remote-')) continue;
    try {
      notes.push({
        name,
        note: JSON.parse(fs.readFileSync(path.join(dataDir, CONNECTIONS_DIR, name, FOLDER_FILE), 'utf8')),
      });
    } catch {}
  }
  return notes;
}

/**
 * The connection whose folder note pinned the certificate `pin`: the same shelter, wherever it answers now. A
 * shelter's certificate stays with its data folder when its office PC gets a new address or its port moves.
 */
export function findPinnedConnection(dataDir: string, pin: string): PinnedConnection | undefined {
  let found: (PinnedConnection & { lastUsedAt: string }) | undefined;
  for (const { name, note } of folderNotes(dataDir)) {
    const { remote, upgradedFrom, pin: pinned, formerAddresses } = note;
    if (typeof remote !== 'string' || pinned !== pin) continue;
    const folderAddress = typeof upgradedFrom === 'string' ? upgradedFrom : remote;
    if (remoteConnectionId(folderAddress) !== name) continue;
    const former = Array.isArray(formerAddresses) ? formerAddresses.filter((a) => typeof a === 'string') : [];
    // Two folders that pinned the same certificate (an older desk's): the one used last.
    const lastUsedAt = String((note as { lastUsedAt?: unknown }).lastUsedAt ?? '');
    if (found && found.lastUsedAt >= lastUsedAt) continue;
    found = { id: name, remote, folderAddress, pin, formerAddresses: former, lastUsedAt };
  }
  if (!found) return undefined;
  const { lastUsedAt: _used, ...connection } = found;
  return connection;
}

/** Whether any connection's folder note pinned a certificate. */
export function hasPinnedConnection(dataDir: string): boolean {
  return folderNotes(dataDir).some(({ note }) => typeof note.pin === 'string');
}

/**
 * A connection that moved from an http:// address to TLS, found by its https address or by its old one, from its
 * folder's note: so a desk switched away and back (or given the old address again) finds its folder and its pin.
 */
export function findMovedConnection(
  dataDir: string,
  address: string,
): { remote: string; upgradedFrom: string; pin?: string; formerAddresses?: string[] } | undefined {
  for (const { name, note } of folderNotes(dataDir)) {
    const { remote, upgradedFrom, pin, formerAddresses } = note;
    if (typeof remote !== 'string' || typeof upgradedFrom !== 'string') continue;
    if (remoteConnectionId(upgradedFrom) !== name) continue;
    // The plain address of a shelter that moved to TLS leads to where it is now; a shelter's earlier https address
    // is only the same shelter if it shows the same certificate there (`ConnectionManager.planRemote`).
    if (remote === address || (upgradedFrom === address && address.startsWith('http://'))) {
      return {
        remote,
        upgradedFrom,
        ...(typeof pin === 'string' && { pin }),
        ...(Array.isArray(formerAddresses) && { formerAddresses }),
      };
    }
  }
  return undefined;
}
