import { nameMeant } from '../../shared/search/typo';
import { asChoice, defaultDataDir, invokedAs, NPM_RUN, runCli } from './args';
import { type CliIo, COMMANDS } from './commands';
import { cliVersion } from './version';

/** The reader of stdout went away (`… | head`): what is still printed goes nowhere, and the command finishes its work. */
let readerGone = false;

const io: CliIo = {
  stdout: (text) => {
    if (!readerGone) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
};

/** How the commands' own help and hints write the command line (`npm run --silent cli --` where only data is wanted). */
const WRITTEN_AS = /npm run (?:--silent )?cli --/g;

/**
 * The commands' output, with `npm run cli --` in their help and hints written as the command line was started
 * (`npx shelter-desk`). Only messages are rewritten: stderr, and stdout when it carries the help (`--help`), never
 * data (an export may hold those words in a pet's notes).
 */
export function spokenAs(output: CliIo, as: string, helpOnStdout: boolean): CliIo {
  if (as === NPM_RUN) return output;
  const rewrite = (text: string) => text.replace(WRITTEN_AS, as);
  return {
    stdout: helpOnStdout ? (text) => output.stdout(rewrite(text)) : output.stdout,
    stderr: (text) => output.stderr(rewrite(text)),
  };
}

/** What people type to ask which version they run (-V too: words are read in any case). */
const VERSION_WORDS = new Set(['--version', '-v', 'version']);

/** Words people type for what another command does. */
const MEANT: Readonly<Record<string, string>> = {
  pets: 'export pets',
  list: 'export pets',
  adopters: 'export adopters',
  people: 'export adopters',
  fosters: 'export fosters',
  queue: 'outbox list',
  server: 'serve',
  serve: 'serve',
};

/** The command a mistyped or other word most likely meant ("sycn" is sync, "pets" is export pets), if any. */
export function commandMeant(typed: string): string | undefined {
  const word = typed.toLowerCase();
  if (Object.hasOwn(MEANT, word)) return MEANT[word];
  return nameMeant(
    word,
    COMMANDS.map(({ name }) => name),
  );
}

function usage(as: string): string {
  const entries = [
    ...COMMANDS.map((command) => ({ name: command.name, summary: command.summary })),
    // Started by the launcher and the snapshot themselves (out/cli/serve.js), never reaching this file.
    { name: 'serve', summary: 'Run the shelter’s API on its own, without the desk window.' },
  ];
  const width = Math.max(...entries.map((entry) => entry.name.length));
  const lines = entries.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.summary}`);
  return (
    `Usage: ${as} <command> [options]\n\n${lines.join('\n')}\n\n` +
    `Every command but serve works on the desk's data folder: --data-dir DIR (default: ${defaultDataDir()}).\n` +
    `Help on one command: ${as} <command> --help\n` +
    `Which version this is: ${as} --version\n`
  );
}

/** `npm run cli -- <command> …`: the desk's core from the command line (same mirror, sync and data folder). */
export function runDeskCli(): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
  });
  const as = invokedAs();
  const [name, ...argv] = process.argv.slice(2);
  const output = spokenAs(io, as, argv.includes('--help'));
  return runCli(async () => {
    const word = asChoice(name);
    if (!word || word === '--help' || word === 'help') {
      (word ? io.stdout : io.stderr)(usage(as));
      return word ? 0 : 2;
    }
    if (VERSION_WORDS.has(word)) {
      io.stdout(`Shelter Desk ${cliVersion()}\n`);
      return 0;
    }
    const command = COMMANDS.find((candidate) => candidate.name === word);
    if (!command) {
      const meant = commandMeant(word);
      io.stderr(
        meant
          ? `Unknown command "${name}". Did you mean: ${as} ${meant}?\nAll commands: ${as} --help\n`
          : `Unknown command "${name}".\n${usage(as)}`,
      );
      return 2;
    }
    return (await command.load()).run(argv, output);
  }, output);
}
