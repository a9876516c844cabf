import { describe, expect, it } from 'vitest';
import { failedBecause } from '../../scripts/lib/electron-binary';

describe('why the desktop window could not be fetched, as Settings says it', () => {
  it('says a network error in words, keeping the error in brackets', () => {
    expect(failedBecause('TypeError: fetch failed')).toBe(
      ', as this computer could not reach the download site (TypeError: fetch failed)',
    );
    expect(failedBecause('getaddrinfo ENOTFOUND github.com')).toMatch(/^, as this computer could not reach/);
  });

  it('keeps any other reason as it is', () => {
    expect(failedBecause('the install script finished but no binary was found')).toBe(
      ' (the install script finished but no binary was found)',
    );
  });
});
