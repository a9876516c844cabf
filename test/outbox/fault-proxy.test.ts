import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../electron/desk/client';
import { statement } from '../../electron/desk/mirror';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { expectWorkloadExactlyOnce, outboxDeskForEachTest, queueWorkload, WRITE_KEY } from './helpers';

// No merging: every intended change is its own request.
const desk = outboxDeskForEachTest({ outbox: { merge: false } });
let proxy: FaultProxy;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

beforeEach(async () => {
  proxy = await startFaultProxy(desk.server.origin, { random: seeded(7), faultRate: 0.5 });
});

afterEach(async () => {
  await proxy.close();
});

describe('replay through a fault-injecting proxy', () => {
  it('drops, delays, resets after commit, 503 and 429: every change lands exactly once', async () => {
    const workload = { pets: 40, adopters: 15, volunteers: 15 };
    const entries = queueWorkload(desk.outbox, workload);
    // Few client-level tries, so most faults reach the outbox's own retry logic.
    const client = createApiClient({
      baseUrl: proxy.origin,
      apiKey: WRITE_KEY,
      backoffBaseMs: 1,
      backoffCapMs: 2,
      maxAttempts: 2,
      timeoutMs: 2_000,
    });
    let rounds = 0;
    while (desk.outbox.counts().pending > 0 && rounds < 500) {
      await desk.outbox.replay(client);
      desk.outbox.retry();
      rounds += 1;
    }
    await client.close();
    expect(desk.outbox.counts()).toMatchObject({ pending: 0, needsAttention: 0 });
    for (const fault of ['drop', 'delay', 'reset-after-commit', 'server-error', 'rate-limit'] as const) {
      expect(proxy.counts[fault], fault).toBeGreaterThan(0);
    }
    expectWorkloadExactlyOnce(desk.server.dataDir, workload, entries);
    const pending = statement(
      desk.mirror.db,
      'SELECT COUNT(*) AS n FROM pet WHERE has_pending = 1',
    ).get() as {
      n: number;
    };
    expect(pending.n).toBe(0);
  }, 60_000);
});
