import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { PortLike } from '../../electron/desk-process/protocol';
import type { UtilityLike } from '../../electron/main/desk-process-host';
import type { PagePort } from '../../electron/preload/port-transport';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Electron's MessageChannelMain / DOM MessageChannel, in one process: messages are structured-cloned and
 * delivered asynchronously; a port queues until started (`start()`, or setting `onmessage` as the DOM does);
 * closing one end tells the other (`close` event, as MessagePortMain does).
 */
export class StandInPort extends EventEmitter implements PortLike, PagePort {
  peer: StandInPort | undefined;
  /** Replaces local delivery (the child-process stand-in relays a transferred port's traffic). */
  relay: ((data: unknown) => void) | undefined;
  private started = false;
  private closed = false;
  private readonly queue: unknown[] = [];
  private handler: ((event: { data: unknown }) => void) | null = null;

  get onmessage() {
    return this.handler;
  }
  set onmessage(handler: ((event: { data: unknown }) => void) | null) {
    this.handler = handler;
    if (handler) this.start();
  }

  postMessage(message: unknown): void {
    if (this.closed) return;
    const data = structuredClone(message);
    setImmediate(() => this.peer?.deliver(data));
  }

  deliver(data: unknown): void {
    if (this.closed) return;
    if (this.relay) this.relay(data);
    else if (!this.started) this.queue.push(data);
    else this.dispatch(data);
  }

  private dispatch(data: unknown): void {
    this.emit('message', { data });
    this.handler?.({ data });
  }

  start(): void {
    this.started = true;
    for (const data of this.queue.splice(0)) this.dispatch(data);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const peer = this.peer;
    setImmediate(() => peer?.peerClosed());
  }

  peerClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}

export function createChannel(): { port1: StandInPort; port2: StandInPort } {
  const port1 = new StandInPort();
  const port2 = new StandInPort();
  port1.peer = port2;
  port2.peer = port1;
  return { port1, port2 };
}

/**
 * `utilityProcess.fork` of the core's entry, in a real Node child process (so a test can SIGKILL it): the parent
 * port and every transferred port are relayed over the child's IPC channel (test/desktop/utility-child.ts plays
 * `process.parentPort` there).
 */
export function forkCore(
  env: NodeJS.ProcessEnv = {},
): UtilityLike & { child: ChildProcess; stderr(): string } {
  const child = fork(path.join(ROOT, 'test/desktop/utility-child.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const events = new EventEmitter();
  const ports = new Map<number, StandInPort>();
  let nextPort = 1;
  child.on('message', (raw: { parent?: unknown; port?: number; data?: unknown; closed?: number }) => {
    if ('parent' in raw) events.emit('message', raw.parent);
    else if (raw.port !== undefined) ports.get(raw.port)?.peer?.deliver(raw.data);
  });
  child.on('exit', (code, signal) => {
    for (const port of ports.values()) port.peer?.peerClosed();
    ports.clear();
    events.emit('exit', code ?? (signal ? 1 : 0));
  });
  return {
    child,
    stderr: () => stderr,
    get pid() {
      return child.pid;
    },
    postMessage(message, transfer = []) {
      const ids = transfer.map((port) => {
        const id = nextPort++;
        const standIn = port as StandInPort;
        ports.set(id, standIn);
        standIn.relay = (data) => {
          if (child.connected) child.send({ port: id, data });
        };
        return id;
      });
      if (child.connected) child.send({ parent: message, ports: ids });
    },
    on(event: 'message' | 'exit', listener: (value: never) => void) {
      events.on(event, listener as (...args: unknown[]) => void);
      return this;
    },
    kill: () => child.kill('SIGKILL'),
  };
}
