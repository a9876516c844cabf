import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../electron/desk/api';
import { MIRROR_FILE } from '../../electron/desk/mirror';
import { Outbox, openDeskMirror } from '../../electron/desk/outbox';
import {
  activeMirrorFile,
  CONNECTION_FILE,
  connectionFolder,
  REMOTE_KEY_SECRET,
  remoteConnectionId,
} from '../../electron/desk/sync';
import { FileSecretStore } from '../../electron/platform/secret-store';
import { petFields } from '../outbox/helpers';
import { LAUNCHER } from '../run-command';
import { tempDir } from '../temp-mirror';

/**
 * Issue #13: a data folder of an older version (one `mirror.sqlite` beside `connection.json`) is adopted once as the
 * folder of the connection it is set to, by the app and by the command line alike, with every record and every
 * change still waiting.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const folder = tempDir('connection-folders-');
afterAll(() => folder.remove());
const REMOTE = 'http://127.0.0.1:9';

/** An older desk's folder: connected to REMOTE, one pet made here and waiting in the outbox. */
async function legacyFolder(name: string): Promise<string> {
  const dataDir = path.join(folder.dir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, CONNECTION_FILE), JSON.stringify({ mode: 'remote', remote: REMOTE }));
  await new FileSecretStore(dataDir).set(REMOTE_KEY_SECRET, 'legacy-key');
  const mirror = await openDeskMirror({ dataDir });
  const outbox = new Outbox({ db: mirror.db });
  outbox.createPet(petFields({ name: 'Made Before' }));
  await outbox.close();
  await mirror.close();
  return dataDir;
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

describe('an older data folder', () => {
  it('is adopted by the app as the configured connection’s folder, records and waiting changes kept', async () => {
    const dataDir = await legacyFolder('app');
    const core = await createDeskCore({ dataDir, appVersion: 'test', start: false });
    try {
      const pets = await core.registry.invoke('mirror.pets.list', {});
      expect(pets.items.map((pet) => pet.record.name)).toEqual(['Made Before']);
      expect((await core.registry.invoke('outbox.list')).counts.pending).toBe(1);
      expect(await core.registry.invoke('sync.connection.get')).toMatchObject({
        mode: 'remote',
        hasKey: true,
      });
    } finally {
      await core.close();
    }
    expect(fs.existsSync(path.join(dataDir, MIRROR_FILE))).toBe(false);
    const adopted = path.join(connectionFolder(dataDir, remoteConnectionId(REMOTE)), MIRROR_FILE);
    expect(activeMirrorFile(dataDir)).toBe(adopted);
    expect(fs.existsSync(adopted)).toBe(true);

    // Opened again: the same folder, nothing moved twice.
    const again = await createDeskCore({ dataDir, appVersion: 'test', start: false });
    try {
      expect((await again.registry.invoke('outbox.list')).counts.pending).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('is adopted by a command with --data-dir, which then acts on the active connection', async () => {
    const dataDir = await legacyFolder('cli');
    const listed = cli(['outbox', 'list', '--data-dir', dataDir]);
    expect(listed.status, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { entries: unknown[] }).entries).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, MIRROR_FILE))).toBe(false);
    expect(fs.existsSync(activeMirrorFile(dataDir))).toBe(true);

    const exported = cli(['export', 'pets', '--data-dir', dataDir, '--format', 'json']);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('Made Before');
  }, 60_000);

  it('keeps an old file untouched when the connection’s folder already has a mirror', async () => {
    const dataDir = await legacyFolder('both');
    const target = activeMirrorFile(dataDir);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    (await openDeskMirror({ dataDir: path.dirname(target) })).close();
    const core = await createDeskCore({ dataDir, appVersion: 'test', start: false });
    try {
      expect((await core.registry.invoke('mirror.pets.list', {})).total).toBe(0);
    } finally {
      await core.close();
    }
    expect(fs.existsSync(path.join(dataDir, MIRROR_FILE))).toBe(true);
  });
});
