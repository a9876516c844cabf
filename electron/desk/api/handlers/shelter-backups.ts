import fs from 'node:fs';
import path from 'node:path';
import type { BackupEntry } from '../../../../shared/desk-api';

/** Automatic (daily) backups kept; older ones are deleted after each new one. */
export const AUTOMATIC_BACKUPS_KEPT = 14;
export const DAY_MS = 24 * 60 * 60 * 1000;

const NAME = /^shelter-(automatic|manual)-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(\d{3})\.sqlite$/;

/** The backups folder of a desk's data folder. */
export function backupFolder(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** `shelter-<kind>-YYYYMMDD-HHMMSSmmm.sqlite` in UTC: sorts by time, never collides within a desk. */
export function backupFileName(kind: BackupEntry['kind'], at: number): string {
  const stamp = new Date(at).toISOString().replace(/[-:T.Z]/g, '');
  return `shelter-${kind}-${stamp.slice(0, 8)}-${stamp.slice(8, 17)}.sqlite`;
}

/** The backups in a folder, newest first (files with other names are ignored). */
export function listBackups(folder: string): BackupEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  const entries: BackupEntry[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match) continue;
    const [, kind, y, mo, d, h, mi, s, ms] = match;
    const file = path.join(folder, name);
    let bytes = 0;
    try {
      bytes = fs.statSync(file).size;
    } catch {
      continue;
    }
    entries.push({
      file,
      name,
      kind: kind as BackupEntry['kind'],
      createdAt: `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`,
      bytes,
    });
  }
  return entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Deletes automatic backups beyond the newest `keep`. Manual backups are the user's to delete. */
export function pruneAutomaticBackups(folder: string, keep = AUTOMATIC_BACKUPS_KEPT): string[] {
  const removed = listBackups(folder)
    .filter((entry) => entry.kind === 'automatic')
    .slice(keep)
    .map((entry) => entry.file);
  for (const file of removed) fs.rmSync(file, { force: true });
  return removed;
}

/** Whether the newest automatic backup is a day old (or there is none). */
export function automaticBackupDue(folder: string, now: number): boolean {
  const newest = listBackups(folder).find((entry) => entry.kind === 'automatic');
  return newest === undefined || now - Date.parse(newest.createdAt) >= DAY_MS;
}
