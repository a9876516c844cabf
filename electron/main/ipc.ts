import { BrowserWindow, type IpcMainEvent, ipcMain, type MessagePortMain } from 'electron';
import { DESK_IPC_EVENT, DESK_IPC_PORT, DESK_IPC_PORT_REQUEST, type DeskEvent } from '../../shared/desk-api';
import type { DeskProcessHost } from './desk-process-host';
import { isAppUrl } from './security-rules';

/**
 * Whether an IPC message comes from the app's own UI: the top frame of one of our windows, at the
 * UI origin. A subframe, a navigated-away page or a destroyed frame is refused.
 */
function isTrustedSender(event: IpcMainEvent, allowedOrigin: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  return isAppUrl(frame.url, allowedOrigin);
}

/**
 * Connects windows to the core's process: a page of the app that asks for the bridge (`desk:port-request`, sent by
 * the preload on every load) gets one end of a fresh MessageChannel, now and after every restart of the core.
 * The port is the capability: only trusted frames get one. Returns the function that disconnects.
 */
export function connectDeskPorts(
  host: Pick<DeskProcessHost, 'connect' | 'disconnect'>,
  allowedOrigin: string,
  onRefused: (url: string | undefined) => void = () => undefined,
): () => void {
  const known = new Set<number>();
  const onRequest = (event: IpcMainEvent) => {
    if (!isTrustedSender(event, allowedOrigin)) {
      onRefused(event.senderFrame?.url);
      return;
    }
    const contents = event.sender;
    const id = contents.id;
    host.connect(id, (port) => {
      if (!contents.isDestroyed())
        contents.postMessage(DESK_IPC_PORT, null, [port as unknown as MessagePortMain]);
    });
    if (!known.has(id)) {
      known.add(id);
      contents.once('destroyed', () => {
        known.delete(id);
        host.disconnect(id);
      });
    }
  };
  ipcMain.on(DESK_IPC_PORT_REQUEST, onRequest);
  return () => {
    ipcMain.removeListener(DESK_IPC_PORT_REQUEST, onRequest);
  };
}

/** Sends a shell event (a menu command, the core's restart) to every window showing the app. */
export function sendShellEvent(event: DeskEvent, allowedOrigin: string): void {
  for (const window of BrowserWindow.getAllWindows()) {
    const contents = window.webContents;
    if (!contents.isDestroyed() && isAppUrl(contents.getURL(), allowedOrigin)) {
      contents.send(DESK_IPC_EVENT, event);
    }
  }
}
