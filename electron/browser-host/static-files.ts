import fs from 'node:fs';
import path from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type for a file name; unknown kinds are served as opaque bytes. */
export function contentTypeFor(filename: string): string {
  return CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file under `root`, or null when it is malformed or would leave `root`
 * (`..`, encoded `%2e%2e`, backslashes, NUL bytes, symlinks pointing outside). `/` maps to index.html.
 * Shared by the browser host and Electron's app:// protocol.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = path.resolve(root);
  const candidate = path.resolve(base, relative);
  if (candidate !== base && !candidate.startsWith(base + path.sep)) return null;
  let real: string;
  try {
    real = fs.realpathSync(candidate);
    if (!fs.statSync(real).isFile()) return null;
  } catch {
    return null;
  }
  const realBase = fs.realpathSync(base);
  return real.startsWith(realBase + path.sep) ? real : null;
}
