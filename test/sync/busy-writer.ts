import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';

/** Staff at work: PATCHes random pets at a steady rate through the API, until stopped. */
export interface BusyWriter {
  /** Stops writing and resolves once the last write is answered; returns how many writes were made. */
  stop(): Promise<number>;
}

/** Collects up to `count` pet ids from the list (spread over the list by offset). */
export async function samplePetIds(apiUrl: string, key: string, count: number): Promise<string[]> {
  const head = await request(`${apiUrl}/pets?limit=1`, { headers: { 'x-api-key': key } });
  const { total } = (await head.body.json()) as { total: number };
  const ids: string[] = [];
  const pages = Math.max(1, Math.ceil(count / 100));
  for (let page = 0; page < pages; page += 1) {
    const offset = Math.floor((page * Math.max(0, total - 100)) / pages);
    const response = await request(`${apiUrl}/pets?limit=100&offset=${offset}`, {
      headers: { 'x-api-key': key },
    });
    const body = (await response.body.json()) as { pets: Array<{ id: string }> };
    ids.push(...body.pets.map((pet) => pet.id));
  }
  return ids.slice(0, count);
}

/** Starts writing `perSecond` changes a second to the given pets (descriptions, one pet a write). */
export function startBusyWriter(apiUrl: string, writeKey: string, ids: string[], perSecond = 10): BusyWriter {
  const agent = new Agent({ connections: 2 });
  let writes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    const id = ids[Math.floor(Math.random() * ids.length)];
    if (!id) return;
    writes += 1;
    const n = writes;
    inFlight = request(`${apiUrl}/pets/${id}`, {
      method: 'PATCH',
      dispatcher: agent,
      headers: { 'x-api-key': writeKey, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ description: `Walked and fed (update ${n})` }),
    }).then(
      (response) => response.body.dump(),
      () => undefined,
    );
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      await agent.close();
      return writes;
    },
  };
}
