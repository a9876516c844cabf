import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A page whose index.html carried `token`. */
const page = (token: string) => ({ querySelector: () => ({ content: token }) }) as unknown as Document;

const answer = (status: number, body: unknown) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));

/** The transport and the page's state, loaded afresh for each test (the state is the page's, kept by the module). */
const load = async () => ({
  ...(await import('./http-transport')),
  ...(await import('./page-outdated')),
  ...(await import('./desk-away')),
});

beforeEach(() => vi.resetModules());
afterEach(() => vi.unstubAllGlobals());

describe('the browser-mode transport', () => {
  it('hands on the desk’s answers, refusals of the call and of the page’s address included', async () => {
    const { createHttpTransport, isPageOutdated } = await load();
    const fetch = answer(400, { ok: false, error: { code: 'invalid_input', message: 'Name is required.' } });
    vi.stubGlobal('fetch', fetch);
    const result = await createHttpTransport(page('secret')).call('pets.create', { name: '' });
    expect(result).toEqual({ ok: false, error: { code: 'invalid_input', message: 'Name is required.' } });
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ 'x-desk-token': 'secret' });
    // A foreign origin is refused too, and no reload mends that: the page is not called out of date.
    const origin = {
      ok: false,
      error: { code: 'forbidden', message: 'Refused: a request from another site.' },
    };
    vi.stubGlobal('fetch', answer(403, origin));
    expect(await createHttpTransport(page('secret')).call('pets.list', {})).toEqual(origin);
    expect(isPageOutdated()).toBe(false);
  });

  it('a page opened before the desk was started again is told to reload, and says so above every screen', async () => {
    const { createHttpTransport, isPageOutdated, PAGE_OUTDATED_MESSAGE } = await load();
    vi.stubGlobal(
      'fetch',
      answer(403, {
        ok: false,
        error: { code: 'desk_secret_refused', message: 'Refused: missing or wrong desk token.' },
      }),
    );
    const result = await createHttpTransport(page('old secret')).call('pets.list', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'transport_failed', message: PAGE_OUTDATED_MESSAGE },
    });
    expect(isPageOutdated()).toBe(true);
  });

  it('says the desk is away when a call gets no answer at all, and back at its next answer', async () => {
    const { createHttpTransport, isDeskAway, DESK_AWAY_MESSAGE } = await load();
    const transport = createHttpTransport(page('secret'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await transport.call('pets.list', {})).toEqual({
      ok: false,
      error: { code: 'transport_failed', message: DESK_AWAY_MESSAGE },
    });
    expect(isDeskAway()).toBe(true);
    vi.stubGlobal('fetch', answer(200, { ok: true, value: [] }));
    await transport.call('pets.list', {});
    expect(isDeskAway()).toBe(false);
  });

  it('a keepalive write of a form’s typing that fails says nothing of the desk (the page may be going)', async () => {
    const { createHttpTransport, isDeskAway } = await load();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await createHttpTransport(page('secret')).call('drafts.keep', { key: 'intake', value: {} });
    expect(isDeskAway()).toBe(false);
  });

  it('asks the desk once each time its event stream breaks, and the stream opening again says it is back', async () => {
    const { createHttpTransport, isDeskAway } = await load();
    const streams: Array<{ onerror?: () => void; onopen?: () => void; readyState: number }> = [];
    vi.stubGlobal(
      'EventSource',
      class {
        readyState = 0;
        onerror?: () => void;
        onopen?: () => void;
        constructor() {
          streams.push(this);
        }
        close() {}
      },
    );
    const fetch = vi.fn(async (_url: string) => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetch);
    createHttpTransport(page('secret')).subscribe(() => undefined);
    streams[0]?.onerror?.();
    await vi.waitFor(() => expect(isDeskAway()).toBe(true));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/app\.info$/);
    streams[0]?.onopen?.();
    expect(isDeskAway()).toBe(false);
  });
});
