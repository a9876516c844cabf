import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpTransport } from './http-transport';
import { isPageOutdated, PAGE_OUTDATED_MESSAGE } from './page-outdated';

/** A page whose index.html carried `token`. */
const page = (token: string) => ({ querySelector: () => ({ content: token }) }) as unknown as Document;

const answer = (status: number, body: unknown) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));

afterEach(() => vi.unstubAllGlobals());

describe('the browser-mode transport', () => {
  it('hands on the desk’s answers, refusals of the call included', async () => {
    const fetch = answer(400, { ok: false, error: { code: 'invalid_input', message: 'Name is required.' } });
    vi.stubGlobal('fetch', fetch);
    const result = await createHttpTransport(page('secret')).call('pets.create', { name: '' });
    expect(result).toEqual({ ok: false, error: { code: 'invalid_input', message: 'Name is required.' } });
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ 'x-desk-token': 'secret' });
    expect(isPageOutdated()).toBe(false);
  });

  it('a page opened before the desk was started again is told to reload, and says so above every screen', async () => {
    vi.stubGlobal(
      'fetch',
      answer(403, {
        ok: false,
        error: { code: 'forbidden', message: 'Refused: missing or wrong desk token.' },
      }),
    );
    const result = await createHttpTransport(page('old secret')).call('pets.list', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'transport_failed', message: PAGE_OUTDATED_MESSAGE },
    });
    expect(isPageOutdated()).toBe(true);
  });
});
