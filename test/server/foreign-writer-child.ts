import { openServerContext, serverDatabasePath } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';

/**
 * A staff script writing to a running server's database from its own process and connection, then exiting at
 * once (a fee change that concerns many pets is left for the server to finish). Arguments: the server's data
 * folder and a JSON list of steps: `{ "rename": [petId, newName] }` or `{ "fee": [species, adjustment] }`.
 */
const [dataDir, stepsJson] = process.argv.slice(2);
if (!dataDir || !stepsJson) throw new Error('usage: DATA_DIR STEPS_JSON');
const steps = JSON.parse(stepsJson) as Array<{ rename?: [string, string]; fee?: ['dog' | 'cat', number] }>;
const app = await openServerContext(serverDatabasePath(dataDir));
try {
  const staff = createStaffOperations(app);
  for (const step of steps) {
    if (step.rename) {
      const [id, name] = step.rename;
      const pet = app.pets.get(id);
      if (!pet) throw new Error(`no pet ${id}`);
      app.sqlite.transaction(() => app.pets.update(pet, { name }))();
    }
    if (step.fee) {
      const [species, adjustment] = step.fee;
      staff.setFeeRules([{ species, attributeType: 'base', adjustment }]);
    }
  }
} finally {
  await app.close();
}
