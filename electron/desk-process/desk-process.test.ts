import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../desk/api/desk-core';
import { runDeskProcess } from './desk-process';
import type { FromCore, ParentPortLike } from './protocol';

/** `process.parentPort` of a utility process: main's messages in, the core's out (recorded). */
class StandInParent extends EventEmitter implements ParentPortLike {
  readonly sent: FromCore[] = [];
  postMessage(message: unknown): void {
    this.sent.push(structuredClone(message) as FromCore);
  }
  fromMain(data: unknown): void {
    this.emit('message', { data, ports: [] });
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the core process tells main', () => {
  it('when a restore starts and ends, so the updater holds off', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-desk-process-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const parent = new StandInParent();
    let core: DeskCore | undefined;
    let exited: number | undefined;
    runDeskProcess(parent, {
      exit: (code) => {
        exited = code;
      },
      createCore: async (options) => {
        core = await createDeskCore({ ...options, start: false });
        return core;
      },
    });
    parent.fromMain({
      type: 'start',
      dataDir,
      appVersion: 'test',
      shellVersions: {},
      logDir: null,
      secretProtection: 'encrypted',
    });
    await until(() => parent.sent.some((message) => message.type === 'ready'), 'the core to be ready');

    core?.events.emit({ type: 'restore', running: true });
    core?.events.emit({ type: 'restore', running: false });
    expect(parent.sent.filter((message) => message.type === 'restore')).toEqual([
      { type: 'restore', running: true },
      { type: 'restore', running: false },
    ]);

    parent.fromMain({ type: 'stop' });
    await until(() => exited !== undefined, 'the core to stop');
    expect(exited).toBe(0);
    expect(parent.sent.at(-1)).toEqual({ type: 'stopped' });
  });
});
