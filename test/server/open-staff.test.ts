import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openServerContext, serverDatabasePath } from '../../electron/server/server-context';
import { openStaffOperations } from '../../electron/server/staff/open-staff';
import { tempDir } from '../temp-mirror';
import { newPet } from './harness';

describe('the command line opening a shelter', () => {
  it('checks a file no server holds, and leaves the check to the running server that holds it', async () => {
    const { dir, remove } = tempDir('sd-open-staff-');
    // Stands in for a running server: a live process whose id is in the folder's lock.
    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const app = await openServerContext(serverDatabasePath(dir));
      // Written since anyone closed it clean: a command on its own checks it.
      app.sqlite.transaction(() => app.pets.create(newPet({ name: 'Biscuit' }) as never))();
      const alone = await openStaffOperations(dir);
      expect(alone.soundness).toBe('checked');
      await alone.close();
      app.sqlite.transaction(() => app.pets.create(newPet({ name: 'Luna' }) as never))();
      fs.writeFileSync(path.join(dir, 'server.lock'), String(server.pid));
      const beside = await openStaffOperations(dir);
      expect(beside.soundness).toBe('unchecked');
      expect(beside.staff.listApiKeys()).toBeDefined();
      await beside.close();
      await app.close();
    } finally {
      server.kill();
      remove();
    }
  });

  it('leaves a shelter it only reads as it found it, and tightens a file others could read', async () => {
    const { dir, remove } = tempDir('sd-open-staff-');
    const file = serverDatabasePath(dir);
    const record = path.join(dir, '.server.sqlite.closed-clean');
    try {
      await (await openServerContext(file)).close();
      fs.chmodSync(file, 0o644);
      const tightening = await openStaffOperations(dir);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await tightening.close();
      // A command that only reads (keys list) changes neither the file nor its closed-clean record.
      const before = {
        file: fs.statSync(file, { bigint: true }),
        record: fs.statSync(record, { bigint: true }),
      };
      const reader = await openStaffOperations(dir);
      expect(reader.soundness).toBe('closed-clean');
      expect(reader.staff.listApiKeys()).toBeDefined();
      await reader.close();
      expect(fs.statSync(file, { bigint: true }).ctimeNs).toBe(before.file.ctimeNs);
      expect(fs.statSync(record, { bigint: true }).ino).toBe(before.record.ino);
    } finally {
      remove();
    }
  });
});
