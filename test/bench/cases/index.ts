import type { BenchCase } from '../types';
import { serverPetCases } from './server-pets';

/** Every bench case, in run order. Add a file in this folder and list its cases here. */
export const benchCases: BenchCase[] = [...serverPetCases];
