import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { newPet, READ_KEY, startServe, tempDataDir, WRITE_KEY } from '../server/harness';

/**
 * The reliability soak. Short form (every `npm test`): a few clients for a few seconds, one SIGKILL, a few
 * hundred fuzzed inputs and wrong keys. Long form (`npm run test:soak`, SHELTER_DESK_SOAK=long): 50 clients for
 * 60 s, five SIGKILLs, 5,000 fuzzed inputs, 3,000 wrong keys. The file ends with one summary line.
 */
// npm names the running script in npm_lifecycle_event: `npm run test:soak` is the long form on every OS.
const LONG = process.env.SHELTER_DESK_SOAK === 'long' || process.env.npm_lifecycle_event === 'test:soak';
const SETTINGS = LONG
  ? { clients: 50, seconds: 60, kills: 5, fuzzRuns: 5000, wrongKeys: 3000 }
  : { clients: 8, seconds: 3, kills: 1, fuzzRuns: 400, wrongKeys: 300 };

const tally = { served: 0, faults: 0, fuzzed: 0, throttled: 0, verified: 0, lost: 0 };

afterAll(() => {
  console.log(
    `soak (${LONG ? 'long' : 'short'}): requests served ${tally.served}, faults injected ${tally.faults}, inputs fuzzed ${tally.fuzzed}, wrong keys throttled ${tally.throttled}, writes verified ${tally.verified}, lost: ${tally.lost}`,
  );
});

interface Sent {
  status: number;
  body: string;
}

function client(origin: string, localAddress?: string) {
  const dispatcher = new Agent({ connections: 4, localAddress, headersTimeout: 30_000, bodyTimeout: 30_000 });
  return {
    async send(
      method: string,
      path: string,
      options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<Sent> {
      const headers: Record<string, string> = { 'x-api-key': options.key ?? WRITE_KEY, ...options.headers };
      let body: string | undefined;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await request(`${origin}${path}`, {
        method: method as 'GET',
        headers,
        body,
        dispatcher,
      });
      const text = await response.body.text();
      tally.served++;
      return { status: response.statusCode, body: text };
    },
    close: () => dispatcher.close(),
  };
}

/** A write sent but not answered (the server died): resent with the same key, as a desk's outbox does. */
interface Unanswered {
  method: 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  key: string;
}

/**
 * What a client was told: the acknowledged creates (idempotency key -> pet id), its last acknowledged patch
 * per pet, and the writes still waiting for an answer.
 */
interface Ledger {
  created: Map<string, string>;
  lastPatch: Map<string, string>;
  unanswered: Unanswered[];
}

const newLedger = (): Ledger => ({ created: new Map(), lastPatch: new Map(), unanswered: [] });

/** Records an acknowledged write in the ledger. */
function acknowledge(ledger: Ledger, write: Unanswered, answer: Sent): void {
  if (write.method === 'POST') ledger.created.set(write.key, (JSON.parse(answer.body) as { id: string }).id);
  else ledger.lastPatch.set(write.path.slice('/api/pets/'.length), write.body.description as string);
}

/** Resends unanswered writes in order, with their keys; stops at the first that fails again. */
async function resend(api: ReturnType<typeof client>, ledger: Ledger): Promise<void> {
  while (ledger.unanswered.length > 0) {
    const write = ledger.unanswered[0] as Unanswered;
    const answer = await api.send(write.method, write.path, {
      body: write.body,
      headers: { 'idempotency-key': write.key },
    });
    expect(answer.status, answer.body).toBe(200);
    acknowledge(ledger, write, answer);
    ledger.unanswered.shift();
  }
}

/** Checks that every acknowledged write is there exactly once, by reading the server's own answers. */
async function verify(origin: string, ledgers: Ledger[], marker: string): Promise<void> {
  const reader = client(origin);
  try {
    for (const ledger of ledgers) await resend(reader, ledger);
    const ids = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = JSON.parse(
        (await reader.send('GET', `/api/pets?limit=100&offset=${offset}&search=${marker}`, { key: READ_KEY }))
          .body,
      ) as { pets: Array<{ id: string; name: string }>; hasMore: boolean };
      for (const pet of page.pets) if (pet.name.includes(marker)) ids.add(pet.id);
      if (!page.hasMore) break;
    }
    for (const ledger of ledgers) {
      for (const [key, id] of ledger.created) {
        const got = await reader.send('GET', `/api/pets/${id}`, { key: READ_KEY });
        if (got.status !== 200) {
          tally.lost++;
          throw new Error(`acknowledged create ${key} (${id}) is gone: ${got.status}`);
        }
        const expected = ledger.lastPatch.get(id);
        if (
          expected !== undefined &&
          (JSON.parse(got.body) as { description: string }).description !== expected
        ) {
          tally.lost++;
          throw new Error(`acknowledged update of ${id} is lost`);
        }
        tally.verified++;
      }
    }
    // Exactly once: as many marked pets as distinct acknowledged creates (replays and retries made none extra).
    const acknowledged = ledgers.reduce((sum, ledger) => sum + ledger.created.size, 0);
    expect(ids.size).toBe(acknowledged);
  } finally {
    await reader.close();
  }
}

/** One client's loop: creates (some sent twice with the same key), patches of its own pets, reads. */
async function work(
  origin: string,
  ledger: Ledger,
  marker: string,
  until: () => boolean,
  index: number,
): Promise<void> {
  const api = client(origin);
  try {
    let step = 0;
    while (!until()) {
      step++;
      let write: Unanswered | undefined;
      try {
        await resend(api, ledger);
        const kind = step % 5;
        const own = [...ledger.created.values()];
        if (kind === 0 || own.length === 0) {
          write = {
            method: 'POST',
            path: '/api/pets',
            body: newPet({ name: `${marker} c${index} n${step}` }),
            key: randomUUID(),
          };
        } else if (kind === 1) {
          const id = own[step % own.length] as string;
          write = {
            method: 'PATCH',
            path: `/api/pets/${id}`,
            body: { description: `patch ${step}` },
            key: randomUUID(),
          };
        }
        if (write) {
          const answer = await api.send(write.method, write.path, {
            body: write.body,
            headers: { 'idempotency-key': write.key },
          });
          expect(answer.status, answer.body).toBe(200);
          acknowledge(ledger, write, answer);
          // Every third write is sent again as a client would after a lost answer: it must replay, not repeat.
          if (step % 3 === 0) {
            const again = await api.send(write.method, write.path, {
              body: write.body,
              headers: { 'idempotency-key': write.key },
            });
            expect(again.status).toBe(200);
            expect(again.body).toBe(answer.body);
          }
        } else {
          const path = step % 2 === 0 ? '/api/pets?limit=50' : `/api/pets?search=${marker}&limit=5`;
          expect((await api.send('GET', path, { key: READ_KEY })).status).toBeLessThan(500);
        }
      } catch (error) {
        // A connection cut by a kill is expected (the write is resent later); anything else fails the soak.
        const text = `${(error as Error).name} ${(error as Error).message} ${(error as { code?: string }).code}`;
        if (!/ECONNRESET|ECONNREFUSED|SocketError|other side closed|UND_ERR/i.test(text)) throw error;
        if (write && !ledger.unanswered.includes(write) && ![...ledger.created.keys()].includes(write.key)) {
          ledger.unanswered.push(write);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } finally {
    await api.close();
  }
}

describe('reliability soak', () => {
  it(`${SETTINGS.clients} clients for ${SETTINGS.seconds} s of mixed reads and writes: every acknowledged write there exactly once`, async () => {
    const server: RunningApiServer = await startApiServer({
      dataDir: tempDataDir('shelter-soak-'),
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      demo: true,
      rateLimitPerHour: 1_000_000_000,
    });
    try {
      const marker = 'soakload';
      const deadline = Date.now() + SETTINGS.seconds * 1000;
      const ledgers = Array.from({ length: SETTINGS.clients }, newLedger);
      await Promise.all(
        ledgers.map((ledger, index) =>
          work(server.origin, ledger, marker, () => Date.now() > deadline, index),
        ),
      );
      await verify(server.origin, ledgers, marker);
    } finally {
      await server.close();
    }
  }, 180_000);

  it(`SIGKILL of the server mid-burst, ${SETTINGS.kills} times: nothing acknowledged is lost or doubled`, async () => {
    const dataDir = tempDataDir('shelter-soak-kill-');
    const marker = 'soakkill';
    const ledgers = Array.from({ length: 6 }, newLedger);
    for (let round = 0; round < SETTINGS.kills; round++) {
      const serve = await startServe({ dataDir, env: { SHELTER_DESK_RATE_LIMIT: '1000000000' } });
      const origin = serve.apiUrl.replace(/\/api$/, '');
      let killed = false;
      const burst = Promise.all(
        ledgers.map((ledger, index) => work(origin, ledger, marker, () => killed, index)),
      );
      await new Promise((resolve) => setTimeout(resolve, 700 + round * 150));
      killed = true;
      await serve.stop('SIGKILL');
      tally.faults++;
      await burst;
    }
    const serve = await startServe({ dataDir, env: { SHELTER_DESK_RATE_LIMIT: '1000000000' } });
    try {
      await verify(serve.apiUrl.replace(/\/api$/, ''), ledgers, marker);
    } finally {
      await serve.stop();
    }
  }, 300_000);

  it(`fuzzes every endpoint with extreme numbers, deep nesting and broken text (${SETTINGS.fuzzRuns} inputs): never a 5xx, always the error body`, async () => {
    const server = await startApiServer({
      dataDir: tempDataDir('shelter-soak-fuzz-'),
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      rateLimitPerHour: 1_000_000_000,
    });
    const api = client(server.origin);
    const created = JSON.parse(
      (await api.send('POST', '/api/pets', { body: newPet({ custom_id: 'fz' }) })).body,
    ) as { id: string };
    const extremeNumber = fc.constantFrom(
      '99999999999999999999',
      '9223372036854775807',
      '-9223372036854775809',
      '1e20',
      '1e308',
      '-0',
      '0x10',
      'NaN',
      'Infinity',
      '00000000000000000000001',
      '9007199254740993',
      '4.9e-324',
      ' 7 ',
      '',
    );
    const brokenText = fc.constantFrom(
      '%FF',
      '%C3%28',
      '%ED%A0%80',
      '%F4%90%80%80',
      '%E0%A4%A',
      '%',
      '%00',
      'caf%C3%A9',
    );
    const query = fc
      .dictionary(
        fc.constantFrom('limit', 'offset', 'species', 'status', 'search', 'updated_since', 'type'),
        fc.oneof(extremeNumber, brokenText),
        { maxKeys: 4 },
      )
      .map((params) =>
        Object.entries(params)
          .map(([k, v]) => `${k}=${v}`)
          .join('&'),
      );
    const path = fc.constantFrom(
      '/api/pets',
      `/api/pets/${created.id}`,
      '/api/pets/fz',
      '/api/pets/custom-fields',
      '/api/people',
      '/api/people/custom-fields',
      '/api/adoption-fees',
      '/api/contracts',
      `/api/people/${created.id}`,
    );
    const deep = fc
      .integer({ min: 1, max: 60_000 })
      .map((depth) => `{"custom_field_data":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`);
    const numbers = fc
      .constantFrom(1e308, -1e308, 2 ** 63, -0, 5e-324, Number.MAX_SAFE_INTEGER + 2)
      .map((n) =>
        JSON.stringify(newPet({ adoption_fee: n, capacity: n, weight: n, name: String(n) })).replace(
          '"__N__"',
          String(n),
        ),
      );
    const lone = fc
      .constantFrom('\\ud800', '\\udfff', '\\ud800\\u0041', 'a\\udc00b')
      .map((s) => `{"name":"${s}","type":"adopter","custom_id":"${s}","description":"${s}"}`);
    const rawBytes = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes));
    const body = fc.oneof(deep, numbers, lone, rawBytes, fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PATCH'),
        path,
        query,
        body,
        async (method, p, q, b) => {
          tally.fuzzed++;
          const dispatcherBody = method === 'GET' ? undefined : b;
          const response = await request(`${server.origin}${p}${q ? `?${q}` : ''}`, {
            method: method as 'GET',
            headers: {
              'x-api-key': WRITE_KEY,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: dispatcherBody,
          });
          const text = await response.body.text();
          tally.served++;
          expect(response.statusCode, `${method} ${p}?${q} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const error = JSON.parse(text) as { error: unknown; code: unknown; request_id: unknown };
            expect(typeof error.error).toBe('string');
            expect(typeof error.code).toBe('string');
            expect(error.request_id).toBe(response.headers['x-request-id']);
          }
        },
      ),
      { numRuns: SETTINGS.fuzzRuns, seed: 20_261_124 },
    );
    await api.close();
    await server.close();
  }, 300_000);

  it(`${SETTINGS.wrongKeys} wrong keys from one address are throttled while a valid key from another keeps working`, async () => {
    const server = await startApiServer({
      dataDir: tempDataDir('shelter-soak-keys-'),
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      rateLimitPerHour: 1_000_000_000,
    });
    const attacker = client(server.origin, '127.0.0.3');
    const desk = client(server.origin, '127.0.0.1');
    try {
      let checked = 0;
      for (let i = 0; i < SETTINGS.wrongKeys; i++) {
        const guess = await attacker.send('GET', '/api/pets', { key: `wrong-${i}` });
        if (guess.status === 429) tally.throttled++;
        else if (guess.status === 401) checked++;
        else throw new Error(`a wrong key got ${guess.status}`);
        if (i % 50 === 0) expect((await desk.send('GET', '/api/pets', { key: READ_KEY })).status).toBe(200);
      }
      expect(checked).toBeLessThan(10);
    } finally {
      await attacker.close();
      await desk.close();
      await server.close();
    }
  });
});
