import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anyCase,
  asChoice,
  CliUsageError,
  defaultDataDir,
  folderFlagSchema,
  optionsKeptByNpm,
  parseFlags,
  portFlagSchema,
  typedPath,
} from './args';
import { keysFlagOptions } from './commands/keys';

const options = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-open': { type: 'boolean' },
} as const;
const schema = z.object({
  port: portFlagSchema.default(5183),
  'data-dir': folderFlagSchema.optional(),
  'no-open': z.boolean().default(false),
});

describe('parseFlags', () => {
  it('parses and validates flags', () => {
    expect(parseFlags(['--port', '0', '--data-dir', 'x', '--no-open'], options, schema, '')).toEqual({
      port: 0,
      'data-dir': path.resolve('x'),
      'no-open': true,
    });
    expect(parseFlags([], options, schema, '')).toEqual({ port: 5183, 'no-open': false });
  });

  it('names an unknown flag and adds the hint', () => {
    const error = (() => {
      try {
        parseFlags(['--colour'], options, schema, 'See --help.');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CliUsageError);
    expect((error as CliUsageError).message).toBe('Unknown option --colour.');
    expect((error as CliUsageError).hint).toBe('See --help.');
  });

  it.each([
    ['--port', 'abc'],
    ['--port', '70000'],
    ['--port', '-1'],
    ['--data-dir', ' '],
  ])('refuses %s %s with the flag named', (flag, value) => {
    expect(() => parseFlags([flag, value], options, schema, '')).toThrow(new RegExp(`${flag}`));
  });

  it('refuses a missing value', () => {
    expect(() => parseFlags(['--port'], options, schema, '')).toThrow('Option --port needs a value.');
    expect(() => parseFlags(['--port', '-1'], options, schema, '')).toThrow(
      'Option --port needs a value; one that starts with a dash goes after =, as in --port=-1.',
    );
  });

  it('says which option a mistyped one most likely meant', () => {
    expect(() => parseFlags(['--data-dri', 'x'], options, schema, '')).toThrow(
      'Unknown option --data-dri. Did you mean --data-dir?',
    );
    expect(() => parseFlags(['--prot=0'], options, schema, '')).toThrow(
      'Unknown option --prot. Did you mean --port?',
    );
    expect(() => parseFlags(['--colour'], options, schema, '')).toThrow(/^Unknown option --colour\.$/);
  });

  it('names an argument where only options may follow', () => {
    expect(() => parseFlags(['/tmp/shelter'], options, schema, '')).toThrow(
      'Unexpected argument "/tmp/shelter": only options (--name value) follow the command.',
    );
  });

  it('refuses to run without the options npm kept for itself', () => {
    // `npm run serve --port 0 …`: npm took --port, and its value is left as an argument.
    const env = { npm_lifecycle_event: 'serve', npm_config_port: 'true' };
    expect(() => parseFlags(['0'], options, schema, 'See --help.', env)).toThrow(
      new CliUsageError(
        'npm kept --port for itself, so nothing was done: type -- after "npm run serve", then the rest as before.',
        'See --help.',
      ),
    );
  });
});

describe('choices as people type them', () => {
  it('reads a word or a flag in any case, with spaces around it, and still refuses what is no choice', () => {
    expect(asChoice(' Pets ')).toBe('pets');
    expect(asChoice(undefined)).toBeUndefined();
    const schema = z.object({ paper: anyCase(z.enum(['a4', 'letter'], { error: 'must be a4 or letter' })) });
    expect(parseFlags(['--paper', 'A4'], { paper: { type: 'string' } }, schema, '')).toEqual({ paper: 'a4' });
    // A choice written with capitals is found however it is typed.
    const sizes = z.object({ size: anyCase(z.enum(['xSmall', 'small', 'xLarge'])) });
    for (const typed of ['xSmall', 'xsmall', 'XSMALL ']) {
      expect(parseFlags(['--size', typed], { size: { type: 'string' } }, sizes, '')).toEqual({
        size: 'xSmall',
      });
    }
    expect(() => parseFlags(['--paper', 'A5'], { paper: { type: 'string' } }, schema, 'See help.')).toThrow(
      'Invalid value for --paper: must be a4 or letter.',
    );
  });
});

describe('optionsKeptByNpm', () => {
  // What npm passes to every script it runs, whatever was typed.
  const npmOwn = {
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_config_yes: '',
    npm_config_prefix: '/usr',
    npm_config_loglevel: 'silent',
  };

  it('names each option npm took, as npm passes it on', () => {
    // npm run cli keys create --read --name Laptop --data-dir D --json
    const env = {
      ...npmOwn,
      npm_lifecycle_event: 'cli',
      npm_config_read_only: 'true',
      npm_config_name: 'Laptop',
      npm_config_data_dir: 'true',
      npm_config_json: 'true',
    };
    expect(optionsKeptByNpm(keysFlagOptions, env)).toBe(
      'npm kept --data-dir, --read, --name and --json for itself, so nothing was done: type -- after "npm run cli", then the rest as before.',
    );
    expect(optionsKeptByNpm(options, { npm_lifecycle_event: 'start', npm_config_open: '' })).toBe(
      'npm kept --no-open for itself, so nothing was done: type -- after "npm start", then the rest as before.',
    );
  });

  it('finds nothing when -- was typed, outside npm run cli, serve and start, or in npm settings of a config file', () => {
    expect(optionsKeptByNpm(keysFlagOptions, { ...npmOwn, npm_lifecycle_event: 'cli' })).toBeUndefined();
    expect(
      optionsKeptByNpm(keysFlagOptions, { npm_lifecycle_event: 'test', npm_config_json: 'true' }),
    ).toBeUndefined();
    expect(optionsKeptByNpm(keysFlagOptions, { npm_config_json: 'true' })).toBeUndefined();
    // browser=firefox in an .npmrc is not `npm start --browser`; a switch typed is passed on as true.
    const startOptions = {
      browser: { type: 'boolean' },
      demo: { type: 'boolean' },
      'demo-pets': { type: 'string' },
    } as const;
    expect(
      optionsKeptByNpm(startOptions, { npm_lifecycle_event: 'start', npm_config_browser: 'firefox' }),
    ).toBeUndefined();
    // --demo-pets is not read as an abbreviation of --demo.
    expect(
      optionsKeptByNpm(startOptions, { npm_lifecycle_event: 'serve', npm_config_demo_pets: 'true' }),
    ).toBe(
      'npm kept --demo-pets for itself, so nothing was done: type -- after "npm run serve", then the rest as before.',
    );
  });
});

describe('defaultDataDir', () => {
  it('follows each operating system convention', () => {
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a')).toBe(
      path.join('C:\\Users\\a\\AppData\\Roaming', 'Shelter Desk'),
    );
    expect(defaultDataDir({}, 'darwin', '/Users/a')).toBe(
      '/Users/a/Library/Application Support/Shelter Desk',
    );
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/a')).toBe('/x/Shelter Desk');
    expect(defaultDataDir({}, 'linux', '/home/a')).toBe('/home/a/.config/Shelter Desk');
  });
});

describe('typedPath', () => {
  it('reads a leading ~ as the home folder, as the shell would have, and resolves the rest', () => {
    const home = path.resolve('/home/volunteer');
    expect(typedPath('~', home)).toBe(home);
    expect(typedPath('~/shelter data', home)).toBe(path.join(home, 'shelter data'));
    expect(typedPath('shelter', home)).toBe(path.resolve('shelter'));
    // Not the home folder: another user's (~name), or a ~ further on.
    expect(typedPath('~shelter', home)).toBe(path.resolve('~shelter'));
    expect(typedPath('backups/~', home)).toBe(path.resolve('backups/~'));
  });

  it('is how a folder flag is read: --data-dir=~/shelter is in the home folder', () => {
    expect(folderFlagSchema.parse(' ~/shelter ')).toBe(path.join(os.homedir(), 'shelter'));
  });
});
