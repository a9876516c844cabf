import { BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import { DESK_IPC_CALL, DESK_IPC_EVENT, type DeskResult } from '../../shared/desk-api';
import type { DeskCore } from '../desk/api/desk-core';
import { isAppUrl } from './security-rules';

/**
 * Whether an IPC message comes from the app's own UI: the top frame of one of our windows, at the
 * UI origin. A subframe, a navigated-away page or a destroyed frame is refused.
 */
function isTrustedSender(event: IpcMainInvokeEvent, allowedOrigin: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  return isAppUrl(frame.url, allowedOrigin);
}

/**
 * Connects the desk core to the renderers: `desk:call` runs the registry (which validates the input),
 * and every core event is sent to every window as `desk:event`. Returns the function that disconnects.
 */
export function connectDeskIpc(core: DeskCore, allowedOrigin: string): () => void {
  ipcMain.handle(DESK_IPC_CALL, async (event, method: unknown, input: unknown): Promise<DeskResult> => {
    if (!isTrustedSender(event, allowedOrigin)) {
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Refused: this page may not call the desk.' },
      };
    }
    return core.registry.call(String(method), input);
  });
  const unsubscribe = core.events.subscribe((event) => {
    for (const window of BrowserWindow.getAllWindows()) {
      const contents = window.webContents;
      if (!contents.isDestroyed() && isAppUrl(contents.getURL(), allowedOrigin)) {
        contents.send(DESK_IPC_EVENT, event);
      }
    }
  });
  return () => {
    ipcMain.removeHandler(DESK_IPC_CALL);
    unsubscribe();
  };
}
