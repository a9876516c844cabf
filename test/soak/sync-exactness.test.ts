import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import {
  type Day,
  runExactnessScenario,
  type ServerBehaviour,
  SHELTER_CHANGES,
  type ShelterAtStart,
} from '../sync/exactness-scenario';

/**
 * Exact incremental sync, as a property: against a server that keeps to the contract and nothing more (any list
 * order, a change before list pages, whole-second stamps shared by many records, inclusive `updated_since`, faults,
 * a clock far from the desk's, or one that moves with each request so a seed replays which requests share a second), after random changes between syncs (updates, creations, hides three ways, deletions,
 * pets shown again, people), every sync that reports success holds every record at the version the server had when
 * it began or later, and every pull that does not converge leaves its checkpoint where it was.
 * Short form (every `npm test`): 200 generated runs. Long form (`npm run test:soak`, SHELTER_DESK_SOAK=long): 2,000.
 * The short form's cases are the same every run (a fixed seed), the long form's new each time. A failure prints the
 * generated case and fast-check's seed and path; SYNC_PROPERTY_SEED and SYNC_PROPERTY_PATH replay it.
 */
const LONG = process.env.SHELTER_DESK_SOAK === 'long' || process.env.npm_lifecycle_event === 'test:soak';
const RUNS = LONG ? 2_000 : 200;

const tally = { runs: 0, syncs: 0, complete: 0, unconverged: 0, requests: 0 };
afterAll(() => {
  console.log(
    `sync exactness (${LONG ? 'long' : 'short'}): ${tally.runs} runs, ${tally.syncs} syncs, ${tally.complete} complete and exact, ${tally.unconverged} said they were not complete, ${tally.requests} requests`,
  );
});

const behaviourArbitrary: fc.Arbitrary<ServerBehaviour> = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  order: fc.constantFrom('updated', 'arbitrary', 'newest-first', 'shuffle'),
  secondPrecision: fc.boolean(),
  clockOffsetMs: fc.constantFrom(0, -6 * 3_600_000, 3 * 3_600_000),
  // The desk's clock, or one that crosses a second every few requests (or every request) whatever the machine's speed.
  clockTickMs: fc.constantFrom(undefined, 90, 350, 1_000),
  stampLeadMs: fc.constantFrom(0, 0, 1_500),
  changeBeforeEveryPage: fc.constantFrom(false, true, 'offset-pages' as const),
  maxPageSize: fc.integer({ min: 2, max: 30 }),
  faults: fc.constantFrom(0, 0.03, 0.08),
  churnWhilePaging: fc.boolean(),
});

const shelterArbitrary: fc.Arbitrary<ShelterAtStart> = fc.record({
  pets: fc.integer({ min: 0, max: 70 }),
  hiddenPets: fc.integer({ min: 0, max: 8 }),
  adopters: fc.integer({ min: 0, max: 20 }),
  fosters: fc.integer({ min: 0, max: 8 }),
  sharedStamps: fc.boolean(),
});

const daysArbitrary: fc.Arbitrary<Day[]> = fc.array(
  fc.array(fc.record({ change: fc.constantFrom(...SHELTER_CHANGES), pick: fc.nat() }), { maxLength: 25 }),
  { minLength: 1, maxLength: 3 },
);

// The short form explores the same 200 cases every run, so CI is repeatable; the long form a new 2,000 each time.
const replay = process.env.SYNC_PROPERTY_SEED
  ? { seed: Number(process.env.SYNC_PROPERTY_SEED), path: process.env.SYNC_PROPERTY_PATH }
  : LONG
    ? {}
    : { seed: 1 };

describe('sync exactness against an adversarial server (property)', () => {
  it(`every sync that says it is complete holds the server's records (${RUNS} generated runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        behaviourArbitrary,
        shelterArbitrary,
        daysArbitrary,
        async (behaviour, shelter, days) => {
          tally.runs += 1;
          await runExactnessScenario(behaviour, shelter, days, tally);
        },
      ),
      { numRuns: RUNS, endOnFailure: true, ...replay },
    );
  }, 600_000);
});
