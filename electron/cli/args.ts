import os from 'node:os';
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { z } from 'zod';
import { nameMeant } from '../../shared/search/typo';
import { listInWords } from '../../shared/wording/lists';
import type { CliIo } from './commands/command';

/** How the commands' help and hints write the command line when it runs as `npm run cli`. */
export const NPM_RUN = 'npm run cli --';

/** How the command line was started, for the help to show what to type: npm run cli, npx shelter-desk, or the bin. */
export function invokedAs(
  env: NodeJS.ProcessEnv = process.env,
  script: string = process.argv[1] ?? '',
): string {
  if (env.npm_lifecycle_event === 'cli') return NPM_RUN;
  if (path.basename(script).startsWith('shelter-desk')) {
    return env.npm_command === 'exec' ? 'npx shelter-desk' : 'shelter-desk';
  }
  return NPM_RUN;
}

/** How the shelter's server was started, for its help: `npm run serve --`, `npx shelter-desk serve` or the bin's. */
export function serveInvokedAs(
  env: NodeJS.ProcessEnv = process.env,
  script: string = process.argv[1] ?? '',
): string {
  const as = env.npm_lifecycle_event === 'serve' ? NPM_RUN : invokedAs(env, script);
  return as === NPM_RUN ? 'npm run serve --' : `${as} serve`;
}

/** A mistake in how a command was called: printed with a hint, exit code 2. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'CliUsageError';
  }
}

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses flags with `node:util` parseArgs (strict: unknown flags are errors) and validates the values
 * with a zod schema. Throws `CliUsageError` naming the flag and what to do, with `hint` (e.g. where
 * the help is) appended.
 */
export function parseFlags<S extends z.ZodType>(
  argv: readonly string[],
  options: ParseArgsOptions,
  schema: S,
  hint: string,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const keptByNpm = optionsKeptByNpm(options, env);
  if (keptByNpm) throw new CliUsageError(keptByNpm, hint);
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliUsageError(describeParseArgsError(error, options), hint);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0] !== undefined ? `--${String(issue.path[0])}` : 'a flag';
    throw new CliUsageError(`Invalid value for ${flag}: ${issue?.message ?? 'invalid'}.`, hint);
  }
  return parsed.data;
}

/** The package's scripts that take options, as typed. */
const NPM_SCRIPTS_WITH_OPTIONS: Record<string, string> = {
  cli: 'npm run cli',
  serve: 'npm run serve',
  start: 'npm start',
};

/**
 * Says which of a command's options npm kept for itself, or undefined. Typed without `--` after `npm run cli`
 * (`npm run serve`, `npm start`), an option goes to npm, which passes it on only as an `npm_config_*` variable:
 * `--json` as npm_config_json=true, `--no-open` as npm_config_open (empty), `--read` as npm_config_read_only=true
 * (npm completes abbreviations of its own settings); an option npm does not know counts as a switch there, so its
 * value is left as an argument. The command must not run without them: `import --dry-run` would import, `pet create
 * --data-dir D` would write to the default folder. A switch counts only as npm writes it when typed, so a setting
 * of an .npmrc such as browser=firefox is not taken for `npm start --browser`. (`--key` leaves no trace: npm has a
 * setting of that name that it does not pass on.)
 */
export function optionsKeptByNpm(
  options: ParseArgsOptions,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const typedAs = NPM_SCRIPTS_WITH_OPTIONS[env.npm_lifecycle_event ?? ''];
  if (!typedAs) return undefined;
  const settingOf = (option: string) => option.replace(/^no-/, '').replaceAll('-', '_');
  const ownSettings = new Set(Object.keys(options).map(settingOf));
  const settings = Object.entries(env).filter(([name]) => name.startsWith('npm_config_'));
  const kept = Object.entries(options)
    .filter(([option, { type }]) => {
      const setting = settingOf(option);
      const asTyped = (value: string | undefined) =>
        type === 'string' || value === (option.startsWith('no-') ? '' : 'true');
      return settings.some(([variable, value]) => {
        const name = variable.slice('npm_config_'.length);
        // An npm setting that an option starts (read_only for --read) counts when no option is named so.
        const named = name === setting || (name.startsWith(`${setting}_`) && !ownSettings.has(name));
        return named && asTyped(value);
      });
    })
    .map(([option]) => option);
  if (kept.length === 0) return undefined;
  const list = listInWords(kept.map((option) => `--${option}`));
  return `npm kept ${list} for itself, so nothing was done: type -- after "${typedAs}", then the rest as before.`;
}

/** What a `node:util` parseArgs error means for the person who typed the options. */
export function describeParseArgsError(error: unknown, options: ParseArgsOptions): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // The option a mistyped one most likely meant: --data-dri is --data-dir.
    const meant = option && nameMeant(option.replace(/^-+/, '').split('=')[0] ?? '', Object.keys(options));
    return `Unknown option ${option ?? message}.${meant ? ` Did you mean --${meant}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /Unexpected argument '(.*)'\. /.exec(message)?.[1];
    return `Unexpected argument "${argument ?? message}": only options (--name value) follow the command.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (!option) return message;
    // Followed by something that starts with a dash (--demo-pets -5): parseArgs reads that as the next option.
    return /ambiguous/.test(message)
      ? `Option ${option} needs a value; one that starts with a dash goes after =, as in ${option}=-1.`
      : `Option ${option} needs a value.`;
  }
  return message;
}

/**
 * A word of a command line as a choice: in any case and with spaces around it, as people type it ("Pets", "List "),
 * matched against choices written in lower case.
 */
export function asChoice(typed: string | undefined): string | undefined {
  return typed?.trim().toLowerCase();
}

/** A flag whose choices are typed in any case: `--format CSV` is csv, `--paper A4` a4, `--size xsmall` xSmall. */
export function anyCase<S extends z.ZodEnum>(choices: S) {
  return z
    .string()
    .transform(
      (value) => choices.options.find((choice) => String(choice).toLowerCase() === asChoice(value)) ?? value,
    )
    .pipe(choices);
}

/** A TCP port flag: 0 means "any free port". */
export const portFlagSchema = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole number from 0 to 65535' })
  .transform(Number)
  .pipe(z.number().int().max(65535, { error: 'must be a whole number from 0 to 65535' }));

/**
 * A path as typed, made absolute against the current directory. A leading `~` is the home folder, as the shell makes
 * it of a word that starts with one: after `--data-dir=` or in quotes it is left as typed (and the command would
 * make a folder named `~` where it runs).
 */
export function typedPath(value: string, home: string = os.homedir()): string {
  return path.resolve(/^~(?=$|[/\\])/.test(value) ? path.join(home, value.slice(1)) : value);
}

/** A folder flag: a path as typed (`typedPath`). */
export const folderFlagSchema = z
  .string()
  .trim()
  .min(1, { error: 'must name a folder' })
  .transform((value) => typedPath(value));

/**
 * The operating system's per-user application data folder for Shelter Desk (where Electron's
 * `userData` also lives): `%APPDATA%` on Windows, `~/Library/Application Support` on macOS,
 * `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  const appName = 'Shelter Desk';
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), appName);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', appName);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), appName);
}

/**
 * Runs a command's main function: a `CliUsageError` prints the message and hint on `output` and exits 2; any
 * other error prints its message and exits 1. The exit code of `main` is used otherwise.
 */
export async function runCli(
  main: () => Promise<number | undefined>,
  output: Pick<CliIo, 'stderr'> = { stderr: (text) => process.stderr.write(text) },
): Promise<void> {
  try {
    const code = await main();
    if (code !== undefined) process.exitCode = code;
  } catch (error) {
    if (error instanceof CliUsageError) {
      output.stderr(`${error.hint ? `${error.message} ${error.hint}` : error.message}\n`);
      process.exitCode = 2;
      return;
    }
    output.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
