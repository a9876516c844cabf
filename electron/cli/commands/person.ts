import { asChoice, CliUsageError, defaultDataDir } from '../args';
import type { CliCommand, CliIo } from './command';
import { parseWriteCall, runWrite } from './write-command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage =
  () => `Usage: npm run cli -- person create --json '<person create request>' [--force] [--data-dir DIR]

  The body of POST /api/people: {"type":"adopter"|"foster"|"surrender"|"volunteer","name":...}
  - adopter/foster may carry "application": {"pet_ids": [...], "terms_accepted": true}
  - surrender may carry "pets": [{"create": {<pet write fields>}, "reason": ...} | {"pet_id": ...}]
  Pet ids may be local ids of pets created on this desk and not sent yet.
  --force  save even when a person with the same email, or the same name and phone, exists
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Prints the saved record as JSON. Works offline.`;

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const call = parseWriteCall('person', usage(), argv, io);
  if (!call) return 0;
  const [typedAction, extra] = call.words;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, call.hint);
  if (asChoice(typedAction) !== 'create') {
    throw new CliUsageError(
      typedAction ? `Unknown person action "${typedAction}".` : 'Name an action: create.',
      call.hint,
    );
  }
  const request = call.fields();
  return runWrite(call, io, { create: true }, (core) =>
    core.registry.invoke('outbox.createPerson', { request, force: call.force }),
  );
}

export const personCommand: CliCommand = {
  run,
};
