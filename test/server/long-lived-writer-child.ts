import readline from 'node:readline';
import { openServerContext, serverDatabasePath } from '../../electron/server/server-context';

/**
 * A long-lived second writer on a server's database (a staff script that stays open): its own process and
 * connection, kept open between writes. Argument: the data folder. Each line on stdin is a pet id to rename (a plain
 * write transaction, as a script does it); each answer on stdout is that write's `updated_at` as a JSON line.
 */
const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: DATA_DIR');
const app = await openServerContext(serverDatabasePath(dataDir));
let renames = 0;
try {
  for await (const id of readline.createInterface({ input: process.stdin })) {
    const written = app.sqlite.transaction(() => {
      const pet = app.pets.get(id);
      if (!pet) throw new Error(`no pet ${id}`);
      renames += 1;
      return app.pets.update(pet, { name: `Renamed ${renames}` });
    })();
    process.stdout.write(`${JSON.stringify({ updatedAt: written.updated_at })}\n`);
  }
} finally {
  await app.close();
}
