import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequestOrigin, readCookie } from './request-guard';

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('checkRequestOrigin', () => {
  it('accepts its own host with or without its own origin', () => {
    expect(checkRequestOrigin(request({ host: '127.0.0.1:5183' }), 5183)).toEqual({
      ok: true,
      origin: 'http://127.0.0.1:5183',
    });
    expect(
      checkRequestOrigin(request({ host: 'localhost:5183', origin: 'http://localhost:5183' }), 5183).ok,
    ).toBe(true);
  });

  it.each([
    [{ host: 'evil.example:5183' }],
    [{ host: '127.0.0.1:5184' }],
    [{ host: '127.0.0.1.:5183' }],
    [{}],
    [{ host: '127.0.0.1:5183', origin: 'http://evil.example' }],
    [{ host: '127.0.0.1:5183', origin: 'http://localhost:5183' }],
    [{ host: '127.0.0.1:5183', origin: 'null' }],
    [{ host: '127.0.0.1:5183', origin: 'http://user@127.0.0.1:5183' }],
    [{ host: '127.0.0.1:5183', 'sec-fetch-site': 'cross-site' }],
  ])('refuses %o', (headers) => {
    expect(checkRequestOrigin(request(headers), 5183).ok).toBe(false);
  });
});

describe('readCookie', () => {
  it('finds one cookie among several', () => {
    expect(readCookie('a=1; shelter_desk_5183=xyz; b=2', 'shelter_desk_5183')).toBe('xyz');
    expect(readCookie('a=1', 'shelter_desk_5183')).toBeUndefined();
    expect(readCookie(undefined, 'x')).toBeUndefined();
  });
});
