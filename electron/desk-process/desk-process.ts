import { z } from 'zod';
import type { DeskEvent } from '../../shared/desk-api';
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../desk/api/desk-core';
import { type Logger, noopLogger } from '../platform/log';
import { type FromCore, type ParentPortLike, type PortLike, type ToCore, toCoreSchema } from './protocol';
import { createRemoteSecretStore } from './remote-secret-store';

const portCallSchema = z.object({ id: z.number().int(), method: z.string(), input: z.unknown() });

export interface DeskProcessOptions {
  /** The core's log (a rotating core.log on the desktop); called once with the folder main names. */
  createLogger?: (logDir: string) => Logger;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
  /** Default `createDeskCore` (tests may wrap it). */
  createCore?: (options: DeskCoreOptions) => Promise<DeskCore>;
}

/**
 * The desk core in its own process: waits for main's `start`, opens the core (the same `createDeskCore` as
 * browser mode and the CLI), then serves every window's MessagePort with the DeskApi registry and pushes core
 * events to each. Secrets are asked of main. `stop` closes the databases and exits 0; main restarts the process
 * if it ends any other way. Knows nothing of Electron beyond the parent port it is handed.
 */
export function runDeskProcess(parent: ParentPortLike, options: DeskProcessOptions = {}): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const send = (message: FromCore) => parent.postMessage(message);
  const clients = new Set<PortLike>();
  let log: Logger = noopLogger;
  let secrets: ReturnType<typeof createRemoteSecretStore> | undefined;
  let core: Promise<DeskCore | undefined> | undefined;
  let stopping = false;

  function broadcast(event: DeskEvent): void {
    for (const port of clients) port.postMessage({ event });
    if (event.type === 'status') send({ type: 'status', status: event.status });
    if (event.type === 'settings') send({ type: 'settings', settings: event.settings });
    if (event.type === 'restore') send({ type: 'restore', running: event.running });
  }

  async function start(message: Extract<ToCore, { type: 'start' }>): Promise<DeskCore | undefined> {
    if (message.logDir && options.createLogger) {
      const file = options.createLogger(message.logDir);
      // Error lines also go to main, which keeps the last few for Help → Copy diagnostics.
      log = {
        info: file.info,
        warn: file.warn,
        error: (text, fields) => {
          file.error(text, fields);
          send({ type: 'error-line', line: text });
        },
      };
    }
    secrets = createRemoteSecretStore(send, message.secretProtection);
    try {
      const opened = await (options.createCore ?? createDeskCore)({
        dataDir: message.dataDir,
        mode: 'desktop',
        appVersion: message.appVersion,
        shellVersions: message.shellVersions,
        secretStore: secrets,
        log,
      });
      opened.events.subscribe(broadcast);
      log.info('core started', { pid: process.pid, version: message.appVersion });
      send({
        type: 'ready',
        settings: await opened.registry.invoke('settings.get'),
        status: opened.status.get(),
      });
      return opened;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      log.error('core could not start', { reason: text });
      // Main ends this process once it has the reason: exiting here could lose the message on its way.
      send({ type: 'failed', message: text });
      return undefined;
    }
  }

  function connect(port: PortLike): void {
    clients.add(port);
    port.on('close', () => clients.delete(port));
    port.on('message', ({ data }) => {
      const call = portCallSchema.safeParse(data);
      if (!call.success) return;
      const { id, method, input } = call.data;
      void (async () => {
        const opened = await core;
        const result = opened
          ? await opened.registry.call(method, input)
          : {
              ok: false,
              error: { code: 'unavailable', message: "Shelter Desk's data service is not running." },
            };
        if (clients.has(port)) port.postMessage({ id, result });
      })();
    });
    port.start();
  }

  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    const opened = await core;
    await opened?.close();
    log.info('core stopped');
    send({ type: 'stopped' });
    exit(0);
  }

  parent.on('message', ({ data, ports }) => {
    const parsed = toCoreSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'start') core ??= start(message);
    else if (message.type === 'connect' && ports[0]) connect(ports[0]);
    else if (message.type === 'secret-reply') secrets?.receive(message);
    else if (message.type === 'stop') void stop();
  });
}
