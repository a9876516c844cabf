import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves a core free (one file at a time on a 2-core machine), but most
    // files spend their time waiting on the child processes and sockets they start: on 2 cores the suite took
    // 438 s one at a time and 262 s two at a time.
    maxWorkers: os.availableParallelism(),
  },
});
