import { createDeskApi, type DeskApi, type DeskTransport } from '../../../shared/desk-api';
import { createHttpTransport } from './http-transport';

declare global {
  interface Window {
    /** Set by Electron's preload; absent in browser mode. */
    desk?: DeskTransport;
  }
}

/** The app's one DeskApi: Electron's preload when present, else the browser host over HTTP. */
export const desk: DeskApi = createDeskApi(window.desk ?? createHttpTransport());
