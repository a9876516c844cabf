import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  handler: undefined as undefined | ((request: Request) => Promise<Response>),
  privileged: [] as unknown[],
}));

vi.mock('electron', () => ({
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => electron.privileged.push(...schemes),
    handle: (_scheme: string, handler: (request: Request) => Promise<Response>) => {
      electron.handler = handler;
    },
  },
}));

const { registerAppSchemePrivileges, serveAppProtocol } = await import('./app-protocol');

let base: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-protocol-'));
  fs.mkdirSync(path.join(base, 'renderer', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(base, 'renderer', 'index.html'), '<!doctype html><title>Shelter Desk</title>');
  fs.writeFileSync(path.join(base, 'renderer', 'assets', 'app.js'), 'export {}');
  fs.writeFileSync(path.join(base, 'secrets.json'), '{"key":"value"}');
  registerAppSchemePrivileges();
  serveAppProtocol(path.join(base, 'renderer'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function get(url: string): Promise<Response> {
  if (!electron.handler) throw new Error('app:// is not handled');
  return electron.handler(new Request(url));
}

describe('app:// protocol', () => {
  it('is a standard, secure scheme', () => {
    expect(electron.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('serves the UI with the CSP and a proper content type', async () => {
    const page = await get('app://shelter-desk/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const script = await get('app://shelter-desk/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it.each([
    'app://shelter-desk/%2e%2e/secrets.json',
    'app://shelter-desk/..%2fsecrets.json',
    'app://shelter-desk/assets/%2E%2E/%2E%2E/secrets.json',
    'app://other-host/index.html',
    'app://shelter-desk/missing.js',
  ])('answers 404 for %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('value');
  });
});
