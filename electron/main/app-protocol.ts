import fs from 'node:fs/promises';
import { protocol } from 'electron';
import { UI_SECURITY_HEADERS } from '../browser-host/content-security-policy';
import { contentTypeFor, resolveStaticPath } from '../browser-host/static-files';
import { APP_HOST, APP_SCHEME } from './security-rules';

/**
 * Declares app:// as a standard, secure scheme. Must run before `app` is ready. A standard scheme
 * gives the UI a real origin (`app://shelter-desk`) for the CSP's 'self' and the IPC sender checks.
 */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer at app://shelter-desk/ with the app's CSP. Paths are resolved inside
 * `rendererDir` only (no `..`, encoded or not, no symlinks out).
 */
export function serveAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === APP_HOST ? resolveStaticPath(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    const body = await fs.readFile(file);
    return new Response(body, {
      status: 200,
      headers: { ...UI_SECURITY_HEADERS, 'Content-Type': contentTypeFor(file) },
    });
  });
}
