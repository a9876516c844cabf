import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer, swapDatabaseFile } from '../../electron/server';
import { api, later, tempDir } from './helpers';

const KEY = 'backup-load-write-key-0123456789';

/** Creates pets one after another until stopped; remembers which ones the server acknowledged, and when. */
function writer(server: RunningApiServer) {
  const acknowledged: Array<{ id: string; at: number }> = [];
  let running = true;
  let failures = 0;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      const response = await api(server.apiUrl, KEY, '/pets', {
        method: 'POST',
        body: {
          name: `Load ${n}`,
          species: 'cat',
          age_category: 'adult',
          sex: 'female',
          size: 'small',
          status: 'available',
          health: 'good',
          description: 'x'.repeat(2000),
        },
      });
      if (response.status === 200)
        acknowledged.push({ id: (response.json as { id: string }).id, at: performance.now() });
      else failures++;
    }
  })();
  return {
    acknowledged,
    failures: () => failures,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe('backup under write load', () => {
  it('restores to a database that passes integrity_check and holds every write acknowledged before it began', async () => {
    const server = await startApiServer({
      dataDir: tempDir(),
      writeKey: KEY,
      demo: true,
      rateLimitPerHour: 1_000_000,
    });
    later(() => server.close());
    const load = writer(server);
    later(() => load.stop());
    // Let the load build up, so the backup copies a database that is being written to.
    while (load.acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));

    const file = path.join(tempDir(), 'under-load.sqlite');
    const began = performance.now();
    const before = load.acknowledged.filter((write) => write.at < began).map((write) => write.id);
    const backup = server.staff.backup(file);
    const duringStart = load.acknowledged.length;
    await backup;
    const during = load.acknowledged.length - duringStart;
    await load.stop();
    expect(load.failures()).toBe(0);
    expect(before.length).toBeGreaterThanOrEqual(200);

    const target = tempDir();
    const info = swapDatabaseFile(path.join(target, 'server.sqlite'), file);
    expect(info.pets).toBeGreaterThanOrEqual(before.length);
    const restored = new Database(path.join(target, 'server.sqlite'), { readonly: true });
    try {
      expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(restored.prepare('SELECT id FROM pets').pluck().all() as string[]);
      const missing = before.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
    } finally {
      restored.close();
    }
    // Writes kept being answered while the backup ran (the server never stopped serving).
    console.log(`backup under load: ${before.length} writes before, ${during} answered during the backup`);
    expect(fs.statSync(file).size).toBeGreaterThan(0);
  }, 120_000);
});
