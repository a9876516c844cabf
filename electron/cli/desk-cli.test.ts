import { describe, expect, it } from 'vitest';
import { invokedAs, serveInvokedAs } from './args';
import { commandMeant, spokenAs } from './desk-cli';

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

  it('shows the server as it was started: npm run serve, npx shelter-desk serve or the bin’s serve', () => {
    expect(serveInvokedAs({ npm_lifecycle_event: 'serve' }, '/repo/scripts/shelter-desk.mjs')).toBe(
      'npm run serve --',
    );
    expect(serveInvokedAs({ npm_command: 'exec' }, '/repo/node_modules/.bin/shelter-desk')).toBe(
      'npx shelter-desk serve',
    );
    expect(serveInvokedAs({}, '/usr/local/bin/shelter-desk')).toBe('shelter-desk serve');
    expect(serveInvokedAs({}, '/repo/out/cli/serve.js')).toBe('npm run serve --');
  });

  it('writes the commands’ help and hints as the command line was started, never the data they print', () => {
    const written: string[] = [];
    const output = {
      stdout: (text: string) => written.push(`out:${text}`),
      stderr: (text: string) => written.push(`err:${text}`),
    };
    const npx = spokenAs(output, 'npx shelter-desk', false);
    npx.stderr('See: npm run cli -- keys --help');
    npx.stdout('{"notes":"try npm run --silent cli -- export pets"}');
    spokenAs(output, 'npx shelter-desk', true).stdout(
      'Usage: npm run --silent cli -- keys list|create|revoke',
    );
    expect(written).toEqual([
      'err:See: npx shelter-desk keys --help',
      'out:{"notes":"try npm run --silent cli -- export pets"}',
      'out:Usage: npx shelter-desk keys list|create|revoke',
    ]);
    expect(spokenAs(output, 'npm run cli --', true)).toBe(output);
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
