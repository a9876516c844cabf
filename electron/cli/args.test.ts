import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags, portFlagSchema } from './args';

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
    expect(() => parseFlags(['--port'], options, schema, '')).toThrow(/--port/);
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
