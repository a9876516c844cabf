/**
 * The one Content-Security-Policy of the UI, sent by the browser host and by Electron's app:// protocol.
 * - scripts only from the app itself (no inline script, no eval);
 * - styles may be inline: Mantine writes its CSS variables into <style> elements at run time;
 * - images may come from https: pet photos are `image_urls` on the shelter's own image host;
 * - connections only to the app itself: the renderer reaches the network only through the desk bridge.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with every UI response, in both shells. */
export const UI_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};
