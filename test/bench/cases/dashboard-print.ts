import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { computeDashboard } from '../../../electron/desk/dashboard';
import {
  type Mirror,
  refreshQueryStatistics,
  statement,
  storeServerPage,
} from '../../../electron/desk/mirror';
import { openDeskMirror } from '../../../electron/desk/outbox';
import { printCards } from '../../../electron/desk/print';
import type { Pet } from '../../../shared/contract';
import { fixturePhoto } from '../../print/fixtures';
import { makePerson, makePet } from '../../sync/fixtures';
import type { BenchCase, BenchContext, BenchResult } from '../types';

const PETS = 100_000;
const SPECIES = ['dog', 'cat', 'rabbit'] as const;
const STATUSES = [
  'available',
  'available',
  'hold',
  'adopted',
  'adopted',
  'fostered',
  'pending',
  'Meet and greet',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function timings(samples: number[]): { p50Ms: number; p95Ms: number; p99Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), p99Ms: percentile(sorted, 99) };
}

/** A desk mirror of 100k pets (a third adopted over two years) and 2,000 people, kept between runs. */
async function benchMirror(context: BenchContext): Promise<Mirror> {
  const dataDir = path.resolve(import.meta.dirname, '../../../bench-results/dashboard-mirror-100k');
  const mirror = await openDeskMirror({ dataDir });
  const { n } = statement(mirror.db, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number };
  if (n >= PETS) return mirror;
  context.log(
    `dashboard: building a ${PETS / 1000}k-pet mirror in ${path.relative(process.cwd(), dataDir)} (kept)`,
  );
  let seed = 11;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const date = (from: number) => {
    const day = new Date(Date.UTC(2024, 11, 1) + Math.floor(from * 720) * 86_400_000);
    return day.toISOString().slice(0, 10);
  };
  for (let start = n; start < PETS; start += 1000) {
    const page: Pet[] = [];
    for (let index = start; index < Math.min(PETS, start + 1000); index++) {
      const status = STATUSES[Math.floor(next() * STATUSES.length)] as string;
      const intake = next();
      page.push(
        makePet({
          id: randomUUID(),
          name: `Pet ${index}`,
          species: SPECIES[Math.floor(next() * 3)],
          status,
          intake_date: `${date(intake)}T00:00:00.000Z`,
          adopted_on: status === 'adopted' ? date(Math.min(1, intake + next() * 0.2)) : null,
          custom_id: `BEN-${String(index).padStart(6, '0')}`,
          image_urls: [`https://photos.example/pets/${index}`],
        }),
      );
    }
    storeServerPage(mirror.db, 'pet', page, 'listed');
  }
  const people = Array.from({ length: 2000 }, (_, index) =>
    makePerson({
      type: index % 4 === 0 ? 'foster' : 'adopter',
      name: `Person ${index}`,
      status: index % 7 === 0 ? 'pending' : 'active',
      capacity: index % 4 === 0 ? index % 5 : null,
    }),
  );
  storeServerPage(mirror.db, 'person', people, 'listed');
  refreshQueryStatistics(mirror.db);
  return mirror;
}

export const dashboardCases: BenchCase[] = [
  {
    name: 'dashboard',
    group: 'dashboard',
    description: 'dashboard figures on a 100k-pet mirror (p95), beside one plain scan of the pet list table',
    async run(context) {
      const mirror = await benchMirror(context);
      try {
        const today = '2026-11-24';
        const base: number[] = [];
        const measured: number[] = [];
        computeDashboard(mirror.db, today);
        for (let round = 0; round < 60; round++) {
          let started = performance.now();
          statement(mirror.db, 'SELECT COUNT(*), MAX(intake_date) FROM pet_list').get();
          base.push(performance.now() - started);
          started = performance.now();
          computeDashboard(mirror.db, today);
          measured.push(performance.now() - started);
        }
        const figures = timings(measured);
        const baseline = timings(base);
        context.log(
          `dashboard: p95 ${figures.p95Ms.toFixed(1)} ms (one scan of pet_list: ${baseline.p95Ms.toFixed(1)} ms)`,
        );
        return [
          {
            case: 'dashboard',
            metric: 'dashboard.get on 100k pets',
            ...figures,
            ratio: figures.p95Ms / baseline.p95Ms,
            target: 'p95 < 50 ms',
            met: figures.p95Ms < 50,
            note: `ratio = p95 / p95 of one plain scan of the pet list table (${baseline.p95Ms.toFixed(2)} ms, interleaved)`,
          },
        ];
      } finally {
        await mirror.close();
      }
    },
  },
  {
    name: 'print-batch',
    group: 'print',
    description: 'a 50-card event batch PDF with a photo on every card: seconds and MB',
    async run(context): Promise<BenchResult[]> {
      const mirror = await benchMirror(context);
      try {
        // A different photo per card, as at an event (PDFKit embeds a repeated image once).
        const photos = Array.from({ length: 50 }, (_, index) => fixturePhoto(640, index));
        const photo = photos[0] as Buffer;
        const ids = (
          statement(
            mirror.db,
            "SELECT id FROM pet WHERE status = 'available' ORDER BY seq LIMIT 50",
          ).all() as { id: string }[]
        ).map((row) => row.id);
        const run = async (withPhotos: boolean) => {
          const started = performance.now();
          const printed = await printCards(
            mirror.db,
            { petIds: ids },
            {
              paper: 'a4',
              shelterName: 'Bench Rescue',
              loadPhoto: async (url) => (withPhotos ? photos[Number(url.split('/').pop()) % 50] : undefined),
            },
          );
          return {
            seconds: (performance.now() - started) / 1000,
            mb: printed.pdf.length / 1024 / 1024,
            pages: printed.pages,
          };
        };
        await run(false); // warm-up: fonts and code paths
        const plain = await run(false);
        const full = await run(true);
        fs.mkdirSync(path.resolve(import.meta.dirname, '../../../bench-results'), { recursive: true });
        context.log(
          `print: 50 cards in ${full.seconds.toFixed(2)} s, ${full.mb.toFixed(2)} MB (${(photo.length / 1024).toFixed(0)} KB photo each); without photos ${plain.seconds.toFixed(2)} s, ${plain.mb.toFixed(2)} MB`,
        );
        return [
          {
            case: 'print-batch',
            metric: `50 cards, ${full.pages} pages, ${full.mb.toFixed(2)} MB`,
            p50Ms: full.seconds * 1000,
            ratio: full.seconds / plain.seconds,
            target: 'report seconds and MB',
            note: `with a ${(photo.length / 1024).toFixed(0)} KB PNG photo per card; ratio = seconds / seconds of the same batch without photos (${plain.seconds.toFixed(2)} s, ${plain.mb.toFixed(2)} MB)`,
          },
        ];
      } finally {
        await mirror.close();
      }
    },
  },
];
