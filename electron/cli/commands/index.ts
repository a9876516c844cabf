import { backupCommand } from './backup';
import { checkCommand } from './check';
import type { CliCommand } from './command';
import { exportCommand } from './export';
import { keysCommand } from './keys';
import { outboxCommand } from './outbox';
import { personCommand } from './person';
import { petCommand } from './pet';
import { printCommand } from './print';
import { restoreCommand } from './restore';
import { syncCommand } from './sync';

export type { CliCommand, CliIo } from './command';

/** Every `npm run cli` subcommand. To add one, write `commands/<name>.ts` exporting a `CliCommand` and list it here. */
export const COMMANDS: readonly CliCommand[] = [
  syncCommand,
  exportCommand,
  petCommand,
  personCommand,
  outboxCommand,
  keysCommand,
  backupCommand,
  restoreCommand,
  checkCommand,
  printCommand,
];
