import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/desk-api';
import { createDeskCore } from './desk-core';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-core-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('desk core', () => {
  it('answers app.info with version, mode and data folder', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const core = await createDeskCore({ dataDir, appVersion: '1.2.3', modeReason: 'No Electron here.' });
    const info = await core.registry.invoke('app.info');
    expect(info).toMatchObject({
      name: 'Shelter Desk',
      version: '1.2.3',
      mode: 'browser',
      modeReason: 'No Electron here.',
      dataDir,
    });
    expect(fs.existsSync(dataDir)).toBe(true);
    await core.close();
  });

  it('keeps settings in the data folder across restarts and broadcasts each change', async () => {
    const dataDir = tempDir();
    const core = await createDeskCore({ dataDir, appVersion: '0.0.0' });
    const seen: DeskEvent[] = [];
    core.events.subscribe((event) => seen.push(event));
    expect(await core.registry.invoke('settings.get')).toEqual({
      colorScheme: 'auto',
      shelterName: '',
      currency: 'USD',
      deskName: '',
      dateOrder: 'auto',
    });
    await core.registry.invoke('settings.update', {
      colorScheme: 'dark',
      shelterName: '  Happy Tails  ',
      currency: 'eur',
    });
    expect(seen).toEqual([
      {
        type: 'settings',
        settings: {
          colorScheme: 'dark',
          shelterName: 'Happy Tails',
          currency: 'EUR',
          deskName: '',
          dateOrder: 'auto',
        },
      },
    ]);
    await core.close();

    const again = await createDeskCore({ dataDir, appVersion: '0.0.0' });
    expect(await again.registry.invoke('settings.get')).toEqual({
      colorScheme: 'dark',
      shelterName: 'Happy Tails',
      currency: 'EUR',
      deskName: '',
      dateOrder: 'auto',
    });
    await again.close();
  });

  it('refuses an empty or invalid settings change and leaves the file alone', async () => {
    const dataDir = tempDir();
    const core = await createDeskCore({ dataDir, appVersion: '0.0.0' });
    await core.registry.invoke('settings.update', { shelterName: 'Paws' });
    const before = fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8');
    const empty = await core.registry.call('settings.update', {});
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const tooLong = await core.registry.call('settings.update', { shelterName: 'x'.repeat(81) });
    expect(tooLong).toMatchObject({ ok: false, error: { fieldErrors: [{ field: 'shelterName' }] } });
    const notCurrency = await core.registry.call('settings.update', { currency: 'Euro' });
    expect(notCurrency).toMatchObject({
      ok: false,
      error: { fieldErrors: [{ field: 'currency', message: expect.stringContaining('USD, EUR or GBP') }] },
    });
    expect(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).toBe(before);
    await core.close();
  });

  it('keeps good settings and unknown keys from a partly bad file', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'settings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ colorScheme: 'neon', shelterName: 'Paws', currency: 'XYZ', fromNewerVersion: 7 }),
    );
    const core = await createDeskCore({ dataDir, appVersion: '0.0.0' });
    expect(await core.registry.invoke('settings.get')).toEqual({
      colorScheme: 'auto',
      shelterName: 'Paws',
      currency: 'USD',
      deskName: '',
      dateOrder: 'auto',
    });
    await core.registry.invoke('settings.update', { colorScheme: 'light' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      colorScheme: 'light',
      fromNewerVersion: 7,
    });
    await core.close();
  });

  it('moves a corrupt settings file aside and starts from defaults', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'settings.json'), '{ broken');
    const core = await createDeskCore({ dataDir, appVersion: '0.0.0' });
    expect(await core.registry.invoke('settings.get')).toEqual({
      colorScheme: 'auto',
      shelterName: '',
      currency: 'USD',
      deskName: '',
      dateOrder: 'auto',
    });
    expect(fs.readdirSync(dataDir).some((name) => name.startsWith('settings.json.unreadable-'))).toBe(true);
    await core.close();
  });

  it('starts "not connected" and emits the whole status when it changes', async () => {
    const core = await createDeskCore({ dataDir: tempDir(), appVersion: '0.0.0' });
    expect(await core.registry.invoke('status.get')).toMatchObject({ state: 'not-connected', pending: 0 });
    const seen: DeskEvent[] = [];
    core.events.subscribe((event) => seen.push(event));
    core.status.update({ state: 'connecting', remote: 'http://127.0.0.1:9/api' });
    core.status.update({ state: 'connecting', remote: 'http://127.0.0.1:9/api' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ type: 'status', status: { state: 'connecting', lastSyncedAt: null } });
    await core.close();
  });

  it('runs cleanups in reverse order once', async () => {
    const core = await createDeskCore({ dataDir: tempDir(), appVersion: '0.0.0' });
    const order: string[] = [];
    core.context.onClose(() => {
      order.push('first');
    });
    core.context.onClose(() => {
      order.push('second');
    });
    await Promise.all([core.close(), core.close()]);
    expect(order).toEqual(['second', 'first']);
  });
});
