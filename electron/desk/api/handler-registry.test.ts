import { describe, expect, it } from 'vitest';
import { DeskCallError } from '../../../shared/desk-api';
import { createHandlerRegistry } from './handler-registry';

const quiet = { logError: () => {} };

describe('handler registry', () => {
  it('refuses a second handler for the same method', () => {
    const registry = createHandlerRegistry(quiet);
    registry.handle('status.get', () => {
      throw new Error('unused');
    });
    expect(() => registry.handle('status.get', () => ({}) as never)).toThrow(/already has a handler/);
  });

  it('refuses a handler for a method the bridge does not declare', () => {
    const registry = createHandlerRegistry(quiet);
    expect(() => registry.handle('pets.explode' as never, () => ({}) as never)).toThrow(
      /Unknown desk method/,
    );
  });

  it('answers an unknown method with a clear error instead of throwing', async () => {
    const registry = createHandlerRegistry(quiet);
    const result = await registry.call('nope.nothing', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'unknown_method', message: 'The desk has no method named "nope.nothing".' },
    });
  });

  it('validates input with the method schema and names the offending field', async () => {
    const registry = createHandlerRegistry(quiet);
    let ran = false;
    registry.handle('settings.update', () => {
      ran = true;
      return { colorScheme: 'dark', shelterName: '', currency: 'USD', deskName: '', dateOrder: 'auto' };
    });
    const result = await registry.call('settings.update', { colorScheme: 'purple', extra: 1 });
    expect(ran).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.fieldErrors?.map((e) => e.field).sort()).toEqual(['colorScheme', 'extra']);
    expect(result.error.message).toContain('colorScheme');
  });

  it('passes a thrown DeskCallError through with its request id and field errors', async () => {
    const registry = createHandlerRegistry(quiet);
    registry.handle('status.get', () => {
      throw new DeskCallError({ code: 'needs_auth', message: 'The key was refused.', requestId: 'req-1' });
    });
    expect(await registry.call('status.get', undefined)).toEqual({
      ok: false,
      error: { code: 'needs_auth', message: 'The key was refused.', requestId: 'req-1' },
    });
  });

  it('maps errors that know their bridge shape, and unexpected errors to internal_error', async () => {
    const registry = createHandlerRegistry(quiet);
    registry.handle('status.get', () => {
      throw Object.assign(new Error('x'), {
        toDeskError: () => ({ code: 'rate_limited', message: 'Slow down', requestId: 'abc' }),
      });
    });
    registry.handle('app.info', () => {
      throw new Error('disk full');
    });
    expect(await registry.call('status.get', {})).toMatchObject({
      ok: false,
      error: { code: 'rate_limited' },
    });
    const internal = await registry.call('app.info', {});
    expect(internal).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    if (!internal.ok) expect(internal.error.message).toContain('disk full');
  });

  it('rejects a handler reply that does not match the output schema', async () => {
    const registry = createHandlerRegistry(quiet);
    registry.handle('settings.get', () => ({ colorScheme: 'sepia' }) as never);
    expect(await registry.call('settings.get', {})).toMatchObject({
      ok: false,
      error: { code: 'internal_error' },
    });
  });

  it('invoke resolves the validated output or throws DeskCallError', async () => {
    const registry = createHandlerRegistry(quiet);
    registry.handle('settings.get', () => ({
      colorScheme: 'light',
      shelterName: 'Paws',
      currency: 'EUR',
      deskName: '',
      dateOrder: 'auto',
    }));
    await expect(registry.invoke('settings.get')).resolves.toEqual({
      colorScheme: 'light',
      shelterName: 'Paws',
      currency: 'EUR',
      deskName: '',
      dateOrder: 'auto',
    });
    await expect(registry.invoke('status.get')).rejects.toBeInstanceOf(DeskCallError);
  });

  it('lists declared methods that still lack a handler', () => {
    const registry = createHandlerRegistry(quiet);
    expect(registry.missing()).toContain('app.info');
  });
});
