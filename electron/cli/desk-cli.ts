import { runCli } from './args';
import { type CliIo, COMMANDS } from './commands';

/** The reader of stdout went away (`… | head`): what is still printed goes nowhere, and the command finishes its work. */
let readerGone = false;

const io: CliIo = {
  stdout: (text) => {
    if (!readerGone) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
};

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: npm run cli -- <command> [options]\n\n${lines.join('\n')}\n\nHelp on one command: npm run cli -- <command> --help\n`;
}

/** `npm run cli -- <command> …`: the desk's core from the command line (same mirror, sync and data folder). */
export function runDeskCli(): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
  });
  return runCli(async () => {
    const [name, ...argv] = process.argv.slice(2);
    if (!name || name === '--help' || name === 'help') {
      (name ? io.stdout : io.stderr)(usage());
      return name ? 0 : 2;
    }
    const command = COMMANDS.find((candidate) => candidate.name === name);
    if (!command) {
      io.stderr(`Unknown command "${name}".\n${usage()}`);
      return 2;
    }
    return (await command.load()).run(argv, io);
  });
}
