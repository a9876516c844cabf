import { describe, expect, it } from 'vitest';
import { DeskCallError } from './errors';
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

  it('delivers known events and skips ones it cannot read', () => {
    const good = { type: 'status', status: INITIAL_DESK_STATUS };
    const api = createDeskApi(transport(null, [{ type: 'from-the-future' }, good, { type: 'status' }]));
    const seen: DeskEvent[] = [];
    api.subscribe((event) => seen.push(event));
    expect(seen).toEqual([good]);
  });
});
