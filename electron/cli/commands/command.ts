/** Where a command writes: stdout carries only data (parseable with `npm run --silent`), stderr the rest. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** One `npm run cli -- <name> …` subcommand's code. */
export interface CliCommand {
  /** Runs the command; resolves the exit code. Usage mistakes throw `CliUsageError` (exit 2). */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** A subcommand as listed (commands/index.ts): its name and one line for the list; `load` imports its code. */
export interface CliCommandEntry {
  name: string;
  summary: string;
  load(): Promise<CliCommand>;
}
