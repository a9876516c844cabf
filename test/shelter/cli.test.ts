import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupFolder, listBackups } from '../../electron/desk/api/handlers/shelter-backups';
import { petFields } from '../outbox/helpers';
import { api, cli, fileHash, openDesk, tempDir } from './helpers';

describe('npm run cli -- keys | backup | restore on a desk that runs its shelter', () => {
  it('keys made and revoked from the command line count at once on the running server', async () => {
    const dataDir = tempDir();
    const core = await openDesk(dataDir);
    const { apiUrl } = await core.registry.invoke('shelter.setup', { choice: 'standalone' });

    const created = await cli([
      'keys',
      'create',
      '--read',
      '--name',
      'Website',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; kind: string; name: string };
    expect(Object.keys(key).sort()).toEqual(['id', 'key', 'kind', 'name']);
    expect(key).toMatchObject({ kind: 'read', name: 'Website' });
    expect((await api(apiUrl as string, key.key, '/pets?limit=1')).status).toBe(200);
    expect((await api(apiUrl as string, key.key, '/pets', { method: 'POST', body: {} })).status).toBe(403);

    const listed = await cli(['keys', 'list', '--json', '--data-dir', dataDir]);
    const keys = JSON.parse(listed.stdout) as Array<{
      id: string;
      kind: string;
      name: string;
      revoked_at: string | null;
    }>;
    expect(keys.find((entry) => entry.id === key.id)).toMatchObject({
      kind: 'read',
      name: 'Website',
      revoked_at: null,
    });
    expect(listed.stdout).not.toContain(key.key);
    const text = await cli(['keys', 'list', '--data-dir', dataDir]);
    expect(text.stdout).toMatch(new RegExp(`${key.id}\\s+read\\s+Website`));

    expect((await cli(['keys', 'revoke', key.id, '--data-dir', dataDir])).code).toBe(0);
    expect((await api(apiUrl as string, key.key, '/pets?limit=1')).status).toBe(401);
    const again = await cli(['keys', 'revoke', key.id, '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No active key/);
    const usage = await cli(['keys', 'create', '--name', 'x', '--data-dir', dataDir]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--read or --write/);

    // The desk's own key is named as such and kept: revoking it would cut the desk off from its records.
    const own = (
      JSON.parse((await cli(['keys', 'list', '--json', '--data-dir', dataDir])).stdout) as Array<{
        id: string;
        name: string;
        this_desk: boolean;
      }>
    ).filter((entry) => entry.this_desk);
    expect(own).toEqual([expect.objectContaining({ name: 'This desk (its own shelter)' })]);
    const ownId = own[0]?.id ?? '';
    expect(text.stdout).toMatch(new RegExp(`${ownId}\\s+write\\s+This desk \\(its own shelter\\)`));
    const kept = await cli(['keys', 'revoke', ownId, '--data-dir', dataDir]);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toMatch(/the desk uses for its own shelter: revoking it would cut the desk off/);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'After the refusal' }) });
    await core.registry.invoke('sync.now');
    const sent = await core.registry.invoke('mirror.pets.list', { search: 'After the refusal' });
    expect(sent.items.map((item) => [item.presence, item.pending])).toEqual([['listed', false]]);
  }, 90_000);

  it('backs up while the desk serves; restore refuses garbage and a running shelter, then restores', async () => {
    const dataDir = tempDir();
    const core = await openDesk(dataDir);
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const out = path.join(tempDir(), 'shelter.sqlite');
    const backup = await cli(['backup', '--data-dir', dataDir, '--out', out, '--json']);
    expect(backup.code, backup.stderr).toBe(0);
    const info = JSON.parse(backup.stdout) as { file: string; pets: number; people: number };
    expect(info.file).toBe(out);
    expect(info.pets).toBeGreaterThan(50);
    const check = new Database(out, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    // Without --out it goes where the desk's Backup screen keeps backups, named so that the screen lists it.
    const kept = await cli(['backup', '--data-dir', dataDir, '--json']);
    expect(kept.code, kept.stderr).toBe(0);
    const keptFile = (JSON.parse(kept.stdout) as { file: string }).file;
    expect(listBackups(backupFolder(dataDir))).toContainEqual(
      expect.objectContaining({ file: keptFile, kind: 'manual' }),
    );

    // The desk holds its shelter folder: a command-line restore must not swap the file under it.
    const busy = await cli(['restore', out, '--data-dir', dataDir]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/in use by process \d+/);
    // A one-off sync beside it says what to do, not that it tries again or to report a request id.
    const syncing = await cli(['sync', '--once', '--data-dir', dataDir]);
    expect(syncing.code).toBe(1);
    expect(syncing.stderr).toMatch(
      /^The shelter in .*standalone is in use by process \d+ \(a running Shelter Desk or npm run serve\), so this command cannot sync it\.$/m,
    );
    expect(syncing.stderr).toMatch(
      /^Stop it \(Ctrl\+C where it runs, or close the desk window\) and run this again\./m,
    );
    expect(syncing.stderr).not.toMatch(/tries again|request id/);
    await core.close();

    const database = path.join(dataDir, 'standalone', 'server.sqlite');
    const before = fileHash(database);
    const garbage = path.join(tempDir(), 'photo.sqlite');
    fs.writeFileSync(garbage, Buffer.alloc(8192, 7));
    const refused = await cli(['restore', garbage, '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Refused: .*not a readable Shelter Desk backup.*The shelter's data was not changed\.$/m,
    );
    const foreign = path.join(tempDir(), 'other-app.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    other.close();
    const notOurs = await cli(['restore', foreign, '--data-dir', dataDir]);
    expect(notOurs.code).toBe(1);
    expect(notOurs.stderr).toMatch(/not a Shelter Desk shelter backup/);
    expect(fileHash(database)).toBe(before);

    const restored = await cli(['restore', out, '--data-dir', dataDir, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ pets: info.pets, people: info.people });
    expect(fs.existsSync(`${database}.before-restore`)).toBe(true);
  }, 120_000);
});
