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
});
