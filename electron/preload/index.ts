import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
// Only the import-free channels module: a sandboxed preload is bundled alone and cannot load zod.
import { DESK_IPC_CALL, DESK_IPC_EVENT, type DeskTransport } from '../../shared/desk-api/channels';

/**
 * `window.desk`: the raw bridge transport. The renderer wraps it with `createDeskApi`, which validates
 * results and events; main validates every input and checks the sender. Nothing else of Electron or
 * Node reaches the page.
 */
const desk: DeskTransport = {
  call: (method, input) => ipcRenderer.invoke(DESK_IPC_CALL, String(method), input),
  subscribe(listener) {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(DESK_IPC_EVENT, forward);
    return () => {
      ipcRenderer.removeListener(DESK_IPC_EVENT, forward);
    };
  },
};

contextBridge.exposeInMainWorld('desk', desk);
