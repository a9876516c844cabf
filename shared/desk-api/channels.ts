/**
 * Names shared by the transports. Kept free of imports: the sandboxed preload bundles this file alone.
 */
/** How long a window's `sync.watch` (visible) lasts unless it says so again: a closed window stops counting then. */
export const WATCH_LEASE_MS = 30_000;

/** Desktop shell events (menu commands, the core's process state) from main to the window. */
export const DESK_IPC_EVENT = 'desk:event';

/** Browser host routes. */
export const DESK_HTTP_CALL_PREFIX = '/desk/call/';
export const DESK_HTTP_EVENTS = '/desk/events';
/** Header carrying the per-launch secret on every bridge call in browser mode. */
export const DESK_TOKEN_HEADER = 'x-desk-token';
/**
 * The error code of a call or event stream refused for its per-launch secret: a page opened before the desk was
 * started again carries the old one, and only a reload gets the new.
 */
export const DESK_SECRET_REFUSED = 'desk_secret_refused';
/** `<meta name=…>` through which the browser host hands the secret to the page it serves. */
export const DESK_TOKEN_META = 'shelter-desk-token';

/**
 * What the preload exposes as `window.desk` and what the browser shim implements over HTTP:
 * a raw transport that resolves to a result envelope (errors thrown across contextBridge lose
 * every property but the message, so errors travel as values).
 */
export interface DeskTransport {
  call(method: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: unknown) => void): () => void;
}
