import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeskCore, type DeskCore } from '../../../electron/desk/api';
import { pairedDesks, statusChangeReaches } from '../../shelter/live-desks';
import type { BenchCase, BenchResult } from '../types';

const CHANGES = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Change-to-screen latency across desks: desk A runs the shelter and shares it over HTTPS on 127.0.0.1, desk B is
 * paired with it; each of 100 status changes made on A is timed until B's mirror holds it and B has told its
 * screens (`mirror-changed`), with no sync asked for on B (the change stream's poke, then B's ordinary pull).
 */
export const liveChangeCases: BenchCase[] = [
  {
    name: 'live-changes',
    group: 'lan',
    description:
      'A status change on one desk until another desk’s screens are told (p50, p95 over 100 changes)',
    async run(context): Promise<BenchResult[]> {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-live-'));
      const saved = { host: process.env.SHELTER_DESK_LAN_HOST, port: process.env.SHELTER_DESK_LAN_PORT };
      process.env.SHELTER_DESK_LAN_HOST = '127.0.0.1';
      process.env.SHELTER_DESK_LAN_PORT = '0';
      const cores: DeskCore[] = [];
      try {
        const { deskA, deskB, petId } = await pairedDesks(async (name) => {
          const core = await createDeskCore({ dataDir: path.join(root, name), appVersion: 'bench' });
          cores.push(core);
          return core;
        });
        const times: number[] = [];
        for (let index = 0; index < CHANGES; index += 1) {
          const status = index % 2 === 0 ? 'hold' : 'available';
          times.push(await statusChangeReaches(deskA, deskB, petId, status));
          // Volunteers do not change a record every millisecond: a short, uneven pause between changes.
          await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
        }
        const sorted = [...times].sort((a, b) => a - b);
        const p95Ms = Math.round(percentile(sorted, 95));
        context.log(`live-changes: ${CHANGES} changes, max ${Math.round(sorted.at(-1) ?? 0)} ms`);
        return [
          {
            case: 'live-changes',
            metric: 'change on desk A until desk B’s screens are told',
            p50Ms: Math.round(percentile(sorted, 50)),
            p95Ms,
            p99Ms: Math.round(percentile(sorted, 99)),
            target: 'p95 < 2000 ms',
            met: p95Ms < 2000,
          },
        ];
      } finally {
        for (const core of cores.reverse()) await core.close();
        process.env.SHELTER_DESK_LAN_HOST = saved.host;
        process.env.SHELTER_DESK_LAN_PORT = saved.port;
        if (saved.host === undefined) delete process.env.SHELTER_DESK_LAN_HOST;
        if (saved.port === undefined) delete process.env.SHELTER_DESK_LAN_PORT;
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
];
