import { type ApiClient, createApiClient } from '../../client';
import { type Mirror, pendingRecordCount } from '../../mirror';
import { Outbox } from '../../outbox';
import type { SyncHooks } from '../../sync';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';
import type { DeskSync } from './sync';

export interface DeskOutbox {
  outbox: Outbox;
  /** Pass to the sync service: every sync run replays the outbox first (at start, on reconnect, on demand). */
  hooks: Required<SyncHooks>;
  /**
   * The sync's connection, for replays. The outbox replays by itself (after each local write, when a retry falls
   * due) only once the core has started.
   */
  attach(sync: DeskSync): void;
}

/**
 * `outbox.*`: local writes (mirror and outbox in one transaction), the queue with its states, retry, discard, edit,
 * and conflict notices. Every change is broadcast as an `outbox` event (plus `mirror-changed` for the lists) and
 * the status area's pending and needs-attention counts follow it.
 */
export function registerOutboxHandlers(
  registry: HandlerTable,
  context: DeskContext,
  mirror: Mirror,
  /** Keeps a photo the server took under its address, so it shows and prints offline at once. */
  keepPhoto?: (url: string, bytes: Buffer) => void,
): DeskOutbox {
  let sync: DeskSync | undefined;
  let started = false;
  let cached: { key: string; client: ApiClient } | undefined;

  async function resolveClient(): Promise<ApiClient | undefined> {
    const connection = await sync?.resolve();
    if (!connection) return undefined;
    const key = `${connection.baseUrl}\n${connection.apiKey}\n${connection.pin ?? ''}`;
    if (cached?.key !== key) {
      void cached?.client.close();
      cached = {
        key,
        client: createApiClient({
          baseUrl: connection.baseUrl,
          apiKey: connection.apiKey,
          pin: connection.pin,
          paired: connection.paired,
        }),
      };
    }
    return cached.client;
  }

  let keyRefused = false;
  const outbox = new Outbox({
    db: mirror.db,
    resolveClient: async () => (started ? resolveClient() : undefined),
    log: context.log,
    ...(keepPhoto && { onPhotoSent: (url: string, photo: { bytes: Buffer }) => keepPhoto(url, photo.bytes) }),
    // The sync service owns the connection state: its run marks the desk offline and retries until reconnected,
    // and every run replays the outbox first.
    onUnreachable: () => void sync?.service.syncNow(),
    onChange: ({ counts, changed }) => {
      context.status.update({
        pending: pendingRecordCount(mirror.db),
        needsAttention: counts.needsAttention,
        toCheck: outbox.recordsToCheck(),
      });
      // The server refused the key as a change went out (a shelter that revoked this desk): a sync now says so in
      // the header and on Sync at once, in the sync's own words, instead of "Up to date" until the next poll.
      if (counts.pausedReason !== null && !keyRefused) void sync?.service.syncNow();
      keyRefused = counts.pausedReason !== null;
      context.events.emit({ type: 'outbox', counts, changed });
      const collections = new Set<'pets' | 'adopters' | 'fosters'>();
      for (const item of changed) {
        if (item.entityType === 'pet') collections.add('pets');
        else {
          collections.add('adopters');
          collections.add('fosters');
        }
      }
      if (collections.size > 0)
        context.events.emit({ type: 'mirror-changed', collections: [...collections] });
    },
  });
  context.status.update({ needsAttention: outbox.counts().needsAttention, toCheck: outbox.recordsToCheck() });
  context.onStart(() => {
    started = true;
    outbox.kick();
  });
  context.onClose(async () => {
    await outbox.close();
    await cached?.client.close();
  });

  registry.handle('outbox.createPet', ({ fields, force }) => outbox.createPet(fields, { force }));
  registry.handle('outbox.updatePet', ({ id, fields, force }) => outbox.updatePet(id, fields, { force }));
  registry.handle('outbox.createPerson', ({ request, force }) => outbox.createPerson(request, { force }));
  registry.handle('outbox.list', (input) => ({
    entries: outbox.list({ state: input?.state, entityId: input?.entityId }),
    counts: outbox.counts(),
  }));
  registry.handle('outbox.retry', (input) => outbox.retry(input?.id));
  registry.handle('outbox.discard', ({ id }) => outbox.discard(id));
  registry.handle('outbox.edit', ({ id, body }) => outbox.edit(id, body));
  registry.handle('outbox.conflicts', () => outbox.conflicts());
  registry.handle('outbox.resolveConflict', ({ ids, choice }) => outbox.resolveConflicts(ids, choice));

  return {
    outbox,
    hooks: {
      push: async ({ client, signal }) => {
        // One client per key for every replay, so a queue paused for a refused key stays paused until the key
        // changes (a new client), whichever of sync and local writes starts the replay.
        const result = await outbox.replay((await resolveClient().catch(() => undefined)) ?? client, signal);
        return { sent: result.sent, failed: result.failed };
      },
      movedToTls: () => void outbox.retry(),
      // The server is back: what waited only for the network goes now, not after its backoff (the desk said "Up to
      // date" while a sign-up still waited a minute).
      reconnected: () => outbox.retryWhereUnreachable(),
    },
    attach(connected) {
      sync = connected;
    },
  };
}
