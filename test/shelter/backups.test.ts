import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_BACKUPS_KEPT,
  automaticBackupDue,
  backupFileName,
  DAY_MS,
  listBackups,
  pruneAutomaticBackups,
} from '../../electron/desk/api/handlers/shelter-backups';
import { localCalendarDate } from '../../electron/server/db/update-clock';
import { tempDir } from './helpers';

describe('daily backups', () => {
  it('are due after a day, keep the newest 14 automatic ones and every manual one', () => {
    const folder = tempDir();
    const start = Date.parse('2026-03-01T02:00:00.000Z');
    expect(automaticBackupDue(folder, start)).toBe(true);
    for (let day = 0; day < 20; day++) {
      fs.writeFileSync(path.join(folder, backupFileName('automatic', start + day * DAY_MS)), 'x');
      pruneAutomaticBackups(folder);
    }
    fs.writeFileSync(path.join(folder, backupFileName('manual', start)), 'x');
    fs.writeFileSync(path.join(folder, 'holiday-photo.jpg'), 'x');
    const kept = listBackups(folder);
    const automatic = kept.filter((entry) => entry.kind === 'automatic');
    expect(automatic).toHaveLength(AUTOMATIC_BACKUPS_KEPT);
    expect(automatic[0]?.createdAt).toBe(new Date(start + 19 * DAY_MS).toISOString());
    expect(automatic.at(-1)?.createdAt).toBe(new Date(start + 6 * DAY_MS).toISOString());
    expect(kept.filter((entry) => entry.kind === 'manual')).toHaveLength(1);
    expect(fs.existsSync(path.join(folder, 'holiday-photo.jpg'))).toBe(true);
    expect(automaticBackupDue(folder, start + 19 * DAY_MS + DAY_MS - 1)).toBe(false);
    expect(automaticBackupDue(folder, start + 20 * DAY_MS)).toBe(true);
  });
});

describe('adopted_on is the shelter’s calendar date', () => {
  it('follows the local day, not UTC (run under TZ=Pacific/Auckland and TZ=America/Los_Angeles)', () => {
    // 2026-03-01 11:30 UTC is already 2 March in Auckland and still 1 March in Los Angeles.
    const at = Date.parse('2026-03-01T11:30:00.000Z');
    const local = new Date(at);
    const expected = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
    expect(localCalendarDate(at)).toBe(expected);
    if (process.env.TZ === 'Pacific/Auckland') expect(localCalendarDate(at)).toBe('2026-03-02');
    if (process.env.TZ === 'America/Los_Angeles') expect(localCalendarDate(at)).toBe('2026-03-01');
  });
});
