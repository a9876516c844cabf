import { CliUsageError, defaultDataDir } from '../args';
import type { CliCommand, CliIo } from './command';
import { parseWriteCall, runWrite } from './write-command';

const USAGE = `Usage: npm run cli -- pet create --json '<pet write fields>' [--force] [--data-dir DIR]
       npm run cli -- pet update <id | custom_id | local id> --json '<fields to change>' [--force] [--data-dir DIR]

  create   a new pet (required: name, species, age_category, sex, size, status, health); saved on this desk
           at once under a local id and sent by the next sync
  update   change only the given fields (sent as a PATCH)
  --force  save even when the microchip is already on another pet
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Prints the saved record as JSON. Works offline.`;

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const call = parseWriteCall('pet', USAGE, argv, io);
  if (!call) return 0;
  const [action, id, extra] = call.words;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, call.hint);
  if (action === 'create') {
    if (id !== undefined) throw new CliUsageError(`pet create takes no id (got "${id}").`, call.hint);
    const fields = call.fields();
    return runWrite(call, io, { create: true }, (core) =>
      core.registry.invoke('outbox.createPet', { fields, force: call.force }),
    );
  }
  if (action === 'update') {
    if (!id) {
      throw new CliUsageError('Name the pet: pet update <id | custom_id | local id> --json ...', call.hint);
    }
    const fields = call.fields();
    return runWrite(call, io, { create: false }, (core) =>
      core.registry.invoke('outbox.updatePet', { id, fields, force: call.force }),
    );
  }
  throw new CliUsageError(
    action ? `Unknown pet action "${action}".` : 'Name an action: create or update.',
    call.hint,
  );
}

export const petCommand: CliCommand = {
  usage: USAGE,
  run,
};
