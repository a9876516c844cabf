import type { BenchCase } from '../types';
import { dashboardCases } from './dashboard-print';
import { lockCases } from './lock-hold';
import { outboxCases } from './outbox-replay';
import { serverPetCases } from './server-pets';
import { syncCases } from './sync-mirror';

/** Every bench case, in run order. Add a file in this folder and list its cases here. */
export const benchCases: BenchCase[] = [
  ...serverPetCases,
  ...syncCases,
  ...outboxCases,
  ...lockCases,
  ...dashboardCases,
];
