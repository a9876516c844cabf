import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { DeskInput } from '../../../shared/desk-api';
import { callEarly, earlyCallsSettled, takeEarly } from '../bridge/early-calls';
import { FIRST_PET_FILTERS, petListQuery } from './pet-list-query';
import { LIST_PAGE_SIZE, useListPages } from './use-list-pages';

const call = vi.fn();
vi.mock('../bridge/desk', () => ({
  desk: { call: (...args: unknown[]) => call(...args), subscribe: () => () => undefined },
}));

const query = petListQuery(FIRST_PET_FILTERS);
const firstPage = { ...query, limit: LIST_PAGE_SIZE, offset: 0 } as DeskInput<'mirror.pets.list'>;

/** What a Pets list shows on its first render: its rows, or that it is still loading. */
function FirstRender() {
  const pages = useListPages('mirror.pets.list', query);
  return createElement('p', null, pages.total === undefined ? 'loading' : `${pages.itemAt(0)?.record.name}`);
}

describe('a new tab’s first list page', () => {
  it('is on the first render when the desk answered while the page loaded, until a mounted screen takes it', async () => {
    call.mockResolvedValueOnce({ items: [{ record: { name: 'Biscuit' } }], total: 1 });
    callEarly('mirror.pets.list', firstPage);
    await earlyCallsSettled(1000);
    expect(renderToString(createElement(FirstRender))).toContain('Biscuit');
    // A render only reads it (server rendering runs no effects); the mounted screen's effect takes it, once.
    expect(renderToString(createElement(FirstRender))).toContain('Biscuit');
    expect(takeEarly('mirror.pets.list', firstPage)).toBeDefined();
    expect(renderToString(createElement(FirstRender))).toContain('loading');
  });

  it('is not waited for by the first render while the desk is still answering', async () => {
    call.mockReturnValueOnce(new Promise(() => undefined));
    callEarly('mirror.pets.list', firstPage);
    const started = performance.now();
    await earlyCallsSettled(30);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(renderToString(createElement(FirstRender))).toContain('loading');
  });
});
