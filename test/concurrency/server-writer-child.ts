import { openServerContext, serverDatabasePath } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';

/**
 * What the shelter's command-line tools do to a running server's database from another process: create API keys
 * and change shelter settings one by one (each its own transaction, reading before it writes), then take a backup
 * (SQLite's online backup). Arguments: the server's data folder, a label, how many of each, and the backup file.
 */
const [dataDir, label, count, backupFile] = process.argv.slice(2);
if (!dataDir || !label || !count || !backupFile) throw new Error('usage: DATA_DIR LABEL COUNT BACKUP_FILE');
const app = await openServerContext(serverDatabasePath(dataDir));
try {
  const staff = createStaffOperations(app);
  for (let i = 0; i < Number(count); i += 1) {
    staff.createApiKey('read', `${label} key ${i}`);
    staff.setCustomStatus({ label: `${label} status ${i}`, isPublic: true });
  }
  await app.sqlite.backup(backupFile);
} finally {
  await app.close();
}
