/** Where a command writes: stdout carries only data (parseable with `npm run --silent`), stderr the rest. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** One `npm run cli -- <name> …` subcommand. */
export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  usage: string;
  /** Runs the command; resolves the exit code. Usage mistakes throw `CliUsageError` (exit 2). */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}
