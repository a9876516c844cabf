import type { BenchCase } from '../types';
import { cliStartCases } from './cli-start';
import { dashboardCases } from './dashboard-print';
import { deskUiCases } from './desk-ui';
import { desktopCases } from './desktop-main';
import { importCases } from './import-pets';
import { liveChangeCases } from './live-changes';
import { lockCases } from './lock-hold';
import { outboxCases } from './outbox-replay';
import { restoreCases } from './restore-stall';
import { serverPetCases } from './server-pets';
import { syncBusyCases } from './sync-busy';
import { syncCliCases } from './sync-cli';
import { syncCases } from './sync-mirror';
import { syncStallCases } from './sync-stall';

/** Every bench case, in run order. Add a file in this folder and list its cases here. */
export const benchCases: BenchCase[] = [
  ...serverPetCases,
  ...syncCases,
  ...syncBusyCases,
  ...syncCliCases,
  ...syncStallCases,
  ...outboxCases,
  ...lockCases,
  ...deskUiCases,
  ...desktopCases,
  ...restoreCases,
  ...dashboardCases,
  ...cliStartCases,
  ...importCases,
  ...liveChangeCases,
];
