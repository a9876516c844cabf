import type { SecretStore } from '../platform/secret-store';
import type { FromCore, ToCore } from './protocol';

const REPLY_TIMEOUT_MS = 10_000;

type SecretReply = Extract<ToCore, { type: 'secret-reply' }>;

/**
 * The core's secret store when main holds the secrets (safeStorage exists only in Electron's main process): every
 * read and write is a request to main over the parent port. A reply that does not come within 10 s fails the call
 * (the sync then reports the error) instead of hanging.
 */
export function createRemoteSecretStore(
  send: (message: FromCore) => void,
  protection: SecretStore['protection'],
): SecretStore & { receive(reply: SecretReply): void; failAll(message: string): void } {
  let nextId = 1;
  const pending = new Map<number, { resolve(value: string | null): void; reject(error: Error): void }>();

  function request(op: 'get' | 'set' | 'delete', name: string, value: string | null): Promise<string | null> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('The desk could not reach its secret store (no answer within 10 s).'));
      }, REPLY_TIMEOUT_MS);
      timer.unref();
      pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      send({ type: 'secret', id, op, name, value });
    });
  }

  return {
    protection,
    get: async (name) => (await request('get', name, null)) ?? undefined,
    set: async (name, value) => {
      await request('set', name, value);
    },
    delete: async (name) => {
      await request('delete', name, null);
    },
    receive(reply) {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.message ?? 'The secret store failed.'));
    },
    failAll(message) {
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new Error(message));
      }
    },
  };
}
