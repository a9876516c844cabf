import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiClient } from '../../../electron/desk/client';
import {
  createLocalRecord,
  type ServerPet,
  setLocalEdit,
  storeServerRecord,
} from '../../../electron/desk/mirror';
import { Outbox, openDeskMirror } from '../../../electron/desk/outbox';
import { startApiServer } from '../../../electron/server';
import { makePet } from '../../sync/fixtures';
import type { BenchCase, BenchResult } from '../types';

const WRITE_KEY = 'bench-outbox-write-key-0123456789';
const PETS = 200;
const EDITS = 1_000;
const ENQUEUES = 2_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function latencies(samples: number[]): { p50Ms: number; p95Ms: number; p99Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), p99Ms: percentile(sorted, 99) };
}

function tempDir(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-outbox-'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A valid pet as the API returns it, for seeding a mirror without a server. */
function seedPet(i: number): ServerPet {
  const stamp = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString();
  return makePet({
    name: `Seed ${i}`,
    sex: 'female',
    breed: ['Mixed'],
    color: ['brown'],
    age_years: '2',
    description: `Seed pet ${i}`,
    adoption_fee: '100',
    microchip_id: `SEED${i}`,
    good_with: [],
    temperaments: [],
    created_at: stamp,
    updated_at: stamp,
  });
}

/**
 * Interleaved local writes on one mirror: the same mirror change alone (baseline) and through the outbox
 * (validation, duplicate check, outbox insert, one transaction). Returns both latency lists.
 */
async function measureEnqueue(filename: string): Promise<{ baseline: number[]; writes: number[] }> {
  const mirror = await openDeskMirror({ filename });
  try {
    const pets = Array.from({ length: 2_000 }, (_, i) => seedPet(i));
    mirror.db.transaction(() => {
      for (const pet of pets) storeServerRecord(mirror.db, 'pet', pet, 'listed');
    })();
    // Merging off: every write inserts its own entry (the slower path). The baseline makes the same mirror
    // change without validation, duplicate check or outbox row; the two alternate, so disk noise hits both alike.
    const outbox = new Outbox({ db: mirror.db, merge: false });
    const baseline: number[] = [];
    const writes: number[] = [];
    for (let i = 0; i < ENQUEUES; i += 1) {
      const pet = pets[i % pets.length] as ServerPet;
      const create = i % 4 === 0;
      const fields = create
        ? {
            name: `Intake ${i}`,
            species: 'cat',
            age_category: 'young',
            sex: 'male',
            size: 'small',
            status: 'available',
            health: 'good',
            microchip_id: `NEW${i}`,
          }
        : { description: `Edit ${i}`, status: i % 2 ? 'hold' : 'available' };
      let started = performance.now();
      mirror.db.transaction(() => {
        if (create) createLocalRecord(mirror.db, 'pet', fields);
        else setLocalEdit(mirror.db, 'pet', pet.id, { ...fields, weight: `${i}` });
      })();
      baseline.push(performance.now() - started);
      started = performance.now();
      if (create) outbox.createPet({ ...fields, microchip_id: `OUT${i}` });
      else outbox.updatePet(pet.id, { ...fields, description: `Outbox edit ${i}` });
      writes.push(performance.now() - started);
    }
    await outbox.close();
    return { baseline, writes };
  } finally {
    await mirror.close();
  }
}

const enqueueCase: BenchCase = {
  name: 'outbox-enqueue',
  group: 'outbox',
  description: `latency of ${ENQUEUES} local writes (mirror change + outbox insert in one transaction) on a WAL + synchronous=FULL file, and in memory (CPU only), each beside the same mirror change alone`,
  async run(context) {
    const folder = tempDir();
    try {
      const results: BenchResult[] = [];
      for (const [label, filename] of [
        ['file (fsync per write)', path.join(folder.dir, 'mirror.sqlite')],
        ['in memory (CPU only)', ':memory:'],
      ] as const) {
        const { baseline, writes } = await measureEnqueue(filename);
        const measured = latencies(writes);
        const base = latencies(baseline);
        context.log(
          `outbox-enqueue ${label}: p95 ${measured.p95Ms.toFixed(2)} ms (mirror change alone ${base.p95Ms.toFixed(2)} ms)`,
        );
        results.push({
          case: 'outbox-enqueue',
          metric: `local write + outbox insert, ${label}`,
          ...measured,
          ratio: base.p95Ms / measured.p95Ms,
          target: 'p95 < 5 ms',
          met: measured.p95Ms < 5,
          note: `ratio = p95 of the same mirror change alone (${base.p95Ms.toFixed(2)} ms, interleaved) / p95 through the outbox`,
        });
      }
      return results;
    } finally {
      folder.remove();
    }
  },
};

const replayCase: BenchCase = {
  name: 'outbox-replay',
  group: 'outbox',
  description: `replay of ${EDITS} queued edits over ${PETS} pets against the embedded server, beside the same PATCHes sent directly`,
  async run(context) {
    const folder = tempDir();
    const server = await startApiServer({
      dataDir: path.join(folder.dir, 'server'),
      writeKey: WRITE_KEY,
      rateLimitPerHour: 1_000_000_000,
    });
    const mirror = await openDeskMirror({ dataDir: path.join(folder.dir, 'desk') });
    const client = createApiClient({ baseUrl: server.origin, apiKey: WRITE_KEY });
    try {
      const ids: string[] = [];
      for (let i = 0; i < PETS; i += 1) {
        const response = await client.send({
          method: 'POST',
          path: '/api/pets',
          body: JSON.stringify({
            name: `Replay ${i}`,
            species: 'dog',
            age_category: 'adult',
            sex: 'male',
            size: 'large',
            status: 'available',
            health: 'good',
          }),
          idempotencyKey: randomUUID(),
        });
        const pet = response.body as ServerPet;
        storeServerRecord(mirror.db, 'pet', pet, 'listed');
        ids.push(pet.id);
      }
      const edits = Array.from({ length: EDITS }, (_, i) => ({
        id: ids[i % PETS] as string,
        fields: { description: `Edit ${i}`, weight: `${i % 40}` },
      }));

      // Baseline: the same PATCHes, four at a time (the outbox's concurrency), no queue, no mirror.
      let next = 0;
      const baselineStarted = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < edits.length) {
            const edit = edits[next++] as (typeof edits)[number];
            await client.send({
              method: 'PATCH',
              path: `/api/pets/${edit.id}`,
              body: JSON.stringify(edit.fields),
              idempotencyKey: randomUUID(),
            });
          }
        }),
      );
      const baselineSeconds = (performance.now() - baselineStarted) / 1000;

      // The outbox: merging off so it sends every one of the edits, each record strictly in order.
      const outbox = new Outbox({ db: mirror.db, merge: false, concurrency: 4 });
      for (const edit of edits)
        outbox.updatePet(edit.id, { ...edit.fields, description: `${edit.fields.description}!` });
      const started = performance.now();
      const result = await outbox.replay(client);
      const seconds = (performance.now() - started) / 1000;
      await outbox.close();
      if (result.sent !== EDITS) throw new Error(`outbox-replay sent ${result.sent} of ${EDITS}`);
      context.log(`outbox-replay: ${seconds.toFixed(2)} s (direct ${baselineSeconds.toFixed(2)} s)`);
      return [
        {
          case: 'outbox-replay',
          metric: `replay ${EDITS} edits / ${PETS} pets (s)`,
          requestsPerSecond: EDITS / seconds,
          ratio: baselineSeconds / seconds,
          target: 'replay < 10 s',
          met: seconds < 10,
          note: `${seconds.toFixed(2)} s; direct PATCHes ${baselineSeconds.toFixed(2)} s (ratio = direct time / outbox time; the outbox also sends one conflict-check GET per pet)`,
        },
      ] satisfies BenchResult[];
    } finally {
      await client.close();
      await mirror.close();
      await server.close();
      folder.remove();
    }
  },
};

export const outboxCases: BenchCase[] = [enqueueCase, replayCase];
