/**
 * Child side of the `utilityProcess` stand-in (stand-ins.ts): plays Electron's `process.parentPort` and the
 * MessagePortMain ends it is handed over Node's IPC channel, then loads the core's real entry.
 */
import { EventEmitter } from 'node:events';

const send = (message: unknown) => {
  if (process.connected) process.send?.(message);
};

class RelayedPort extends EventEmitter {
  constructor(private readonly id: number) {
    super();
  }
  postMessage(data: unknown): void {
    send({ port: this.id, data });
  }
  start(): void {}
  close(): void {}
}

const ports = new Map<number, RelayedPort>();
const parentPort = new EventEmitter() as EventEmitter & { postMessage(message: unknown): void };
parentPort.postMessage = (message) => send({ parent: message });
// Electron's ParentPort queues messages until the first 'message' listener starts it; so does this one.
const early: Array<{ data: unknown; ports: RelayedPort[] }> = [];
parentPort.on('newListener', (event: string) => {
  if (event === 'message' && parentPort.listenerCount('message') === 0) {
    setImmediate(() => {
      for (const message of early.splice(0)) parentPort.emit('message', message);
    });
  }
});

process.on('message', (raw: { parent?: unknown; ports?: number[]; port?: number; data?: unknown }) => {
  if (raw.port !== undefined) {
    ports.get(raw.port)?.emit('message', { data: raw.data });
    return;
  }
  const handed = (raw.ports ?? []).map((id) => {
    const port = new RelayedPort(id);
    ports.set(id, port);
    return port;
  });
  const message = { data: raw.parent, ports: handed };
  if (parentPort.listenerCount('message') === 0) early.push(message);
  else parentPort.emit('message', message);
});
// Without a parent the stand-in ends like a utility process does.
process.on('disconnect', () => process.exit(0));

Object.assign(process, { parentPort });
await import('../../electron/desk-process/index');
