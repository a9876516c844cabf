import type { DeskApi, DeskTransport } from '../../../shared/desk-api';
import { createDeskClient } from '../../../shared/desk-api/client';
import { createHttpTransport } from './http-transport';

declare global {
  interface Window {
    /** Set by Electron's preload; absent in browser mode. */
    desk?: DeskTransport;
  }
}

/** The app's one DeskApi: Electron's preload when present, else the browser host over HTTP. */
export const desk: DeskApi = createDeskClient(
  window.desk ?? createHttpTransport(),
  // The event schemas (and zod) load with the first listener, after the first frame: a new tab does not wait for them.
  async () => (await import('../../../shared/desk-api/events')).readDeskEvent,
);
