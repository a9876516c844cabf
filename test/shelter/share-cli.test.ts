import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConnectionCode } from '../../shared/desk-api';
import { cli, openDesk, shareLanOnLoopback, tempDir } from './helpers';

shareLanOnLoopback();

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('npm run cli -- share on|off|status|code', () => {
  it('turns sharing on and off for a running desk, prints a pairing code another desk syncs with', async () => {
    const dataA = path.join(tempDir(), 'a');
    const deskA = await openDesk(dataA);
    await deskA.registry.invoke('shelter.setup', { choice: 'standalone' });
    expect(json((await cli(['share', 'status', '--data-dir', dataA, '--json'])).stdout)).toMatchObject({
      enabled: false,
      listening: false,
    });
    const noCode = await cli(['share', 'code', '--data-dir', dataA]);
    expect(noCode.code).toBe(1);
    expect(noCode.stderr).toContain('share on');

    const on = await cli(['share', 'on', '--data-dir', dataA, '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(json(on.stdout)).toMatchObject({ enabled: true, listening: true });
    expect((await deskA.registry.invoke('shelter.lan.get')).enabled).toBe(true);

    const made = await cli(['share', 'code', '--data-dir', dataA, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const printed = json(made.stdout);
    expect(Object.keys(printed).sort()).toEqual(['address', 'code', 'expiresAt', 'fingerprint', 'typed']);
    expect(printed.address).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
    const code = parseConnectionCode(String(printed.code));
    expect(code).toMatchObject({
      kind: 'pairing',
      remote: printed.address,
      fingerprint: printed.fingerprint,
    });
    expect(Date.parse(String(printed.expiresAt)) - Date.now()).toBeGreaterThan(14 * 60_000);

    const dataB = path.join(tempDir(), 'b');
    const paired = await cli(['sync', '--code', String(printed.code), '--data-dir', dataB, '--once']);
    expect(paired.code, paired.stderr).toBe(0);
    const keys = await deskA.registry.invoke('shelter.keys.list');
    expect(keys.some((key) => key.name.startsWith('Desk: ') && key.lastUsedAt !== null)).toBe(true);

    // The typed form of a new code, as a person copies it off the screen, pairs another folder the same way.
    const another = await cli(['share', 'code', '--data-dir', dataA]);
    const typed = /^Or type on the other desk: (.+)$/m.exec(another.stderr)?.[1] ?? '';
    expect(typed).toMatch(/^127\.0\.0\.1:\d+ [0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const typedPair = await cli(['sync', '--code', typed, '--data-dir', path.join(tempDir(), 'c'), '--once']);
    expect(typedPair.code, typedPair.stderr).toBe(0);
    expect((await deskA.registry.invoke('shelter.keys.list')).length).toBe(keys.length + 1);

    const off = await cli(['share', 'off', '--data-dir', dataA, '--json']);
    expect(json(off.stdout)).toMatchObject({ enabled: false, listening: false });
    expect((await deskA.registry.invoke('shelter.lan.get')).address).toBeNull();
  }, 180_000);

  it('works on a stopped desk and refuses a folder that runs no shelter', async () => {
    const dataA = path.join(tempDir(), 'a');
    const deskA = await openDesk(dataA);
    await deskA.registry.invoke('shelter.setup', { choice: 'standalone' });
    await deskA.close();
    const on = await cli(['share', 'on', '--data-dir', dataA]);
    expect(on.stdout).toContain('starts when the desk runs');
    const status = await cli(['share', 'status', '--data-dir', dataA]);
    expect(status.stdout).toMatch(/Certificate fingerprint: ([0-9A-F]{4} ){15}[0-9A-F]{4}/);
    // With the port chosen at start (0, as in tests), a stopped desk has no address for a code yet: it says so.
    const portless = await cli(['share', 'code', '--data-dir', dataA]);
    expect(portless.code).toBe(1);
    expect(portless.stdout).toBe('');
    expect(portless.stderr).toContain('chosen when the desk starts');
    // With a port set, the code names it.
    process.env.SHELTER_DESK_LAN_PORT = '18787';
    const made = await cli(['share', 'code', '--data-dir', dataA]).finally(() => {
      process.env.SHELTER_DESK_LAN_PORT = '0';
    });
    expect(made.code, made.stderr).toBe(0);
    expect(parseConnectionCode(made.stdout)).toMatchObject({
      kind: 'pairing',
      remote: 'https://127.0.0.1:18787/api',
    });
    const none = await cli(['share', 'status', '--data-dir', tempDir()]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('npm start -- --standalone');
  }, 120_000);
});
