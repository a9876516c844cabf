import { describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  devContentSecurityPolicy,
  externalUrlToOpen,
  isAppUrl,
  uiOrigin,
} from './security-rules';

describe('Electron shell security rules', () => {
  it('uses app:// unless a dev server is given', () => {
    expect(uiOrigin(undefined)).toBe('app://shelter-desk');
    expect(uiOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
  });

  it('accepts only frames of the app origin', () => {
    expect(isAppUrl('app://shelter-desk/index.html#/pets', APP_ORIGIN)).toBe(true);
    expect(isAppUrl('app://shelter-desk.evil/index.html', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('https://shelter-desk/', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('not a url', APP_ORIGIN)).toBe(false);
    expect(isAppUrl(undefined, APP_ORIGIN)).toBe(false);
  });

  it('opens only plain http(s) links externally', () => {
    expect(externalUrlToOpen('https://example.org/pets?id=1')).toBe('https://example.org/pets?id=1');
    expect(externalUrlToOpen('file:///etc/passwd')).toBeNull();
    expect(externalUrlToOpen('javascript:alert(1)')).toBeNull();
    expect(externalUrlToOpen('smb://server/share')).toBeNull();
    expect(externalUrlToOpen('https://user:pass@example.org/')).toBeNull();
    expect(externalUrlToOpen('::nonsense')).toBeNull();
  });

  it('loosens the CSP only for the dev server', () => {
    const csp = devContentSecurityPolicy('http://localhost:5173');
    expect(csp).toContain('ws://localhost:5173');
    expect(csp).toContain("default-src 'self'");
  });
});
