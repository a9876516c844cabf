/**
 * The desktop bridge over a MessagePort (the core runs in its own process). Kept free of imports: the sandboxed
 * preload bundles this file alone.
 *
 * - The preload asks main for a port with `DESK_IPC_PORT_REQUEST` when the page loads; main answers on
 *   `DESK_IPC_PORT` with one end of a fresh channel whose other end it gave to the core (again after every
 *   restart of the core). Until a port arrives, calls wait.
 * - Over the port: the page sends `{ id, method, input }`; the core answers `{ id, result }` (a result envelope)
 *   and pushes `{ event }`.
 */
export const DESK_IPC_PORT_REQUEST = 'desk:port-request';
export const DESK_IPC_PORT = 'desk:port';

export interface PortCallMessage {
  id: number;
  method: string;
  input: unknown;
}

export type PortReplyMessage = { id: number; result: unknown } | { event: unknown };
