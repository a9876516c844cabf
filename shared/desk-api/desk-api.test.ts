import { describe, expect, it, vi } from 'vitest';
import { createDeskClient, type DeskEventReader } from './client';
import { DeskCallError } from './errors';
import { readDeskEvent } from './events';
import { createDeskApi, type DeskEvent, INITIAL_DESK_STATUS } from './index';

function transport(reply: unknown, events: unknown[] = []) {
  return {
    calls: [] as Array<[string, unknown]>,
    call(method: string, input: unknown) {
      this.calls.push([method, input]);
      return Promise.resolve(reply);
    },
    subscribe(listener: (event: unknown) => void) {
      for (const event of events) listener(event);
      return () => {};
    },
  };
}

describe('createDeskApi', () => {
  it('resolves the value of a successful call and passes the input through', async () => {
    const raw = transport({ ok: true, value: { colorScheme: 'dark', shelterName: '' } });
    const api = createDeskApi(raw);
    await expect(api.call('settings.update', { colorScheme: 'dark' })).resolves.toEqual({
      colorScheme: 'dark',
      shelterName: '',
    });
    expect(raw.calls).toEqual([['settings.update', { colorScheme: 'dark' }]]);
  });

  it('rejects with a DeskCallError that keeps the request id and field errors', async () => {
    const api = createDeskApi(
      transport({
        ok: false,
        error: {
          code: 'validation_failed',
          message: 'Invalid request: name is required',
          requestId: '7f1c1b1e-2f43-4a59-9d5b-6a0f5a1f9c11',
          fieldErrors: [{ field: 'name', message: 'is required' }],
        },
      }),
    );
    const error = await api.call('status.get').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskCallError);
    expect((error as DeskCallError).toDeskError()).toEqual({
      code: 'validation_failed',
      message: 'Invalid request: name is required',
      requestId: '7f1c1b1e-2f43-4a59-9d5b-6a0f5a1f9c11',
      fieldErrors: [{ field: 'name', message: 'is required' }],
    });
  });

  it('turns an unreadable reply into a transport error instead of a crash', async () => {
    const api = createDeskApi(transport('<html>proxy error</html>'));
    await expect(api.call('app.info')).rejects.toMatchObject({ code: 'transport_failed' });
  });

  it('turns an error reply that does not read as one into a transport error, and keeps only the known fields', async () => {
    const badFields = createDeskApi(
      transport({ ok: false, error: { code: 'x', message: 'y', fieldErrors: [{ field: 'name' }] } }),
    );
    await expect(badFields.call('app.info')).rejects.toMatchObject({ code: 'transport_failed' });
    const extra = createDeskApi(
      transport({
        ok: false,
        error: { code: 'conflict', message: 'Changed meanwhile', stack: 'at core.ts:1' },
      }),
    );
    const error = await extra.call('app.info').catch((e: unknown) => e);
    expect((error as DeskCallError).toDeskError()).toEqual({
      code: 'conflict',
      message: 'Changed meanwhile',
    });
  });

  it('delivers known events and skips ones it cannot read', async () => {
    const good = { type: 'status', status: INITIAL_DESK_STATUS };
    const api = createDeskApi(transport(null, [{ type: 'from-the-future' }, good, { type: 'status' }]));
    const seen: DeskEvent[] = [];
    api.subscribe((event) => seen.push(event));
    await vi.waitFor(() => expect(seen).toEqual([good]));
  });
});

describe('createDeskClient', () => {
  const status = (text: string) => ({ type: 'status', status: { ...INITIAL_DESK_STATUS, message: text } });
  /** A transport whose events are pushed by the test, and a reader whose loading the test settles. */
  function setup() {
    const listeners = new Set<(event: unknown) => void>();
    let settle: { resolve(reader: DeskEventReader): void; reject(error: Error): void } | undefined;
    const loads = vi.fn(
      () =>
        new Promise<DeskEventReader>((resolve, reject) => {
          settle = { resolve, reject };
        }),
    );
    const api = createDeskClient(
      {
        call: () => Promise.resolve({ ok: true, value: null }),
        subscribe(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      loads,
    );
    const push = (event: unknown) => {
      for (const listener of listeners) listener(event);
    };
    return { api, push, loads, settle: () => settle as NonNullable<typeof settle> };
  }

  it('keeps the events that come before the reader has loaded and delivers them in order once it has', async () => {
    const { api, push, loads, settle } = setup();
    const seen: DeskEvent[] = [];
    api.subscribe((event) => seen.push(event));
    push(status('first'));
    push({ type: 'from-the-future' });
    push(status('second'));
    expect(seen).toEqual([]);
    settle().resolve(readDeskEvent);
    await vi.waitFor(() => expect(seen).toEqual([status('first'), status('second')]));
    push(status('third'));
    expect(seen.at(-1)).toEqual(status('third'));
    api.subscribe(() => {});
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('delivers nothing to a listener that stopped before the reader loaded', async () => {
    const { api, push, settle } = setup();
    const seen: DeskEvent[] = [];
    const stop = api.subscribe((event) => seen.push(event));
    push(status('first'));
    stop();
    settle().resolve(readDeskEvent);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([]);
  });

  it('tries to load the reader again for the next listener when it failed to load', async () => {
    const { api, push, loads, settle } = setup();
    const failed = vi.spyOn(console, 'error').mockImplementation(() => {});
    api.subscribe(() => {});
    settle().reject(new Error('chunk not found'));
    await vi.waitFor(() => expect(failed).toHaveBeenCalledOnce());
    const seen: DeskEvent[] = [];
    api.subscribe((event) => seen.push(event));
    expect(loads).toHaveBeenCalledTimes(2);
    settle().resolve(readDeskEvent);
    push(status('after'));
    await vi.waitFor(() => expect(seen).toEqual([status('after')]));
    failed.mockRestore();
  });
});
