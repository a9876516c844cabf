import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
// Only import-free modules: a sandboxed preload is bundled alone (zod stays out of it).
import { DESK_IPC_EVENT } from '../../shared/desk-api/channels';
import { DESK_IPC_PORT, DESK_IPC_PORT_REQUEST } from '../../shared/desk-api/port-channels';
import { createPortTransport } from './port-transport';

/**
 * `window.desk`: the raw bridge transport, over a MessagePort straight to the core's process (main hands the port
 * over; see port-transport.ts). The renderer wraps it with `createDeskClient`, which checks results and events;
 * the core validates every input. Nothing else of Electron or Node reaches the page.
 */
const bridge = createPortTransport();

ipcRenderer.on(DESK_IPC_PORT, (event: IpcRendererEvent) => {
  const [port] = event.ports;
  if (port) bridge.attach(port);
});
ipcRenderer.on(DESK_IPC_EVENT, (_event: IpcRendererEvent, payload: unknown) => bridge.shellEvent(payload));
ipcRenderer.send(DESK_IPC_PORT_REQUEST);

contextBridge.exposeInMainWorld('desk', bridge.transport);
