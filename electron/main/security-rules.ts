import { CONTENT_SECURITY_POLICY } from '../browser-host/content-security-policy';

/** The custom scheme and host the packaged UI is served from: `app://shelter-desk/index.html`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'shelter-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The UI's origin: the electron-vite dev server in development (`ELECTRON_RENDERER_URL`), else app://.
 * Parsed with `new URL`, so a malformed dev URL fails at start rather than weakening the checks.
 */
export function uiOrigin(devServerUrl: string | undefined): string {
  return devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN;
}

/**
 * Whether a frame URL belongs to the app's own UI. Used for IPC senders and navigation; compares
 * parsed origins, never string prefixes (`app://shelter-desk.evil` must not pass).
 */
export function isAppUrl(url: string | undefined, allowedOrigin: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    // Custom standard schemes give origin "null" in some Node versions; compare scheme and host instead.
    const origin = parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host}`;
    return origin === allowedOrigin;
  } catch {
    return false;
  }
}

/**
 * The URL to hand to the system browser for a link the page tried to open, or null to drop it:
 * only well-formed http(s) URLs without credentials leave the app.
 */
export function externalUrlToOpen(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password) return null;
  return parsed.href;
}

/**
 * The CSP while developing with the Vite dev server: React Refresh injects an inline script and Vite
 * talks to the page over a WebSocket. Never used for the packaged app.
 */
export function devContentSecurityPolicy(devOrigin: string): string {
  const ws = devOrigin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "connect-src 'self'",
    `connect-src 'self' ${ws}`,
  );
}
