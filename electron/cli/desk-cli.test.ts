import { describe, expect, it } from 'vitest';
import { commandMeant, invokedAs } from './desk-cli';

describe('the command line’s help', () => {
  it('shows the command as it was typed: npm run cli, npx shelter-desk or the installed bin', () => {
    expect(invokedAs({ npm_lifecycle_event: 'cli' }, '/repo/scripts/shelter-desk.mjs')).toBe(
      'npm run cli --',
    );
    expect(invokedAs({ npm_command: 'exec' }, '/repo/node_modules/.bin/shelter-desk')).toBe(
      'npx shelter-desk',
    );
    expect(invokedAs({}, '/usr/local/bin/shelter-desk')).toBe('shelter-desk');
    expect(invokedAs({}, '/repo/out/cli/desk-cli.js')).toBe('npm run cli --');
  });

  it('says what an unknown command most likely meant: a typo of a command, or the command for a word', () => {
    expect(commandMeant('sycn')).toBe('sync');
    expect(commandMeant('exprot')).toBe('export');
    expect(commandMeant('Pets')).toBe('export pets');
    expect(commandMeant('list')).toBe('export pets');
    expect(commandMeant('no-such-command')).toBeUndefined();
    expect(commandMeant('x')).toBeUndefined();
    // Words that name what every object has are not commands either.
    expect(commandMeant('constructor')).toBeUndefined();
    expect(commandMeant('toString')).toBeUndefined();
  });
});
