import { benchShelter } from '../fixtures';
import { runLoad } from '../load';
import type { BenchCase } from '../types';
import { serverColdCases } from './server-cold';
import { checked, compareWithRaw, fetchBody, headers, SEARCHES } from './server-compare';

/** Public pet ids spread over the whole list (10 pages of 100). */
async function samplePetIds(origin: string): Promise<string[]> {
  const first = JSON.parse((await fetchBody(origin, '/api/pets?limit=1')).toString()) as { total: number };
  const ids: string[] = [];
  for (let page = 0; page < 10; page++) {
    const offset = Math.floor((first.total / 10) * page);
    const body = JSON.parse((await fetchBody(origin, `/api/pets?limit=100&offset=${offset}`)).toString()) as {
      pets: Array<{ id: string }>;
    };
    ids.push(...body.pets.map((pet) => pet.id));
  }
  return ids;
}

/** GET /api/pets/{id}, GET /api/pets?limit=100 and search on the 100k-pet demo shelter. */
export const serverPetCases: BenchCase[] = [
  {
    name: 'server.pet-by-id',
    group: 'server',
    description: 'GET /api/pets/{id} over 1000 ids of a 100k-pet shelter vs raw node:http',
    async run(context) {
      const { server, loadSeconds } = await benchShelter();
      context.log(`100k-pet shelter ready in ${loadSeconds.toFixed(1)} s`);
      const ids = await samplePetIds(server.origin);
      return compareWithRaw(
        context,
        'server.pet-by-id',
        ids.map((id) => `/api/pets/${id}`),
        0.5,
      );
    },
  },
  {
    name: 'server.pet-list',
    group: 'server',
    description: 'GET /api/pets?limit=100 over 100 different pages of a 100k-pet shelter vs raw node:http',
    async run(context) {
      const paths = Array.from({ length: 100 }, (_, page) => `/api/pets?limit=100&offset=${page * 100}`);
      return compareWithRaw(context, 'server.pet-list', paths, 0.35);
    },
  },
  {
    name: 'server.pet-search',
    group: 'server',
    description: 'GET /api/pets?search=... (substrings and typos) on a 100k-pet shelter',
    async run(context) {
      const { server } = await benchShelter();
      const paths = SEARCHES.map((term) => `/api/pets?limit=20&search=${encodeURIComponent(term)}`);
      const sequential = checked(
        await runLoad({
          mode: 'latency',
          origin: server.origin,
          paths,
          headers,
          count: SEARCHES.length * 25,
        }),
        'search',
      );
      const loaded = checked(
        await runLoad({
          mode: 'throughput',
          origin: server.origin,
          paths,
          headers,
          connections: context.connections,
          duration: context.duration,
        }),
        'search',
      );
      return [
        {
          case: 'server.pet-search',
          metric: 'API, 1 connection, sequential',
          requestsPerSecond: sequential.requestsPerSecond,
          p50Ms: sequential.p50Ms,
          p95Ms: sequential.p95Ms,
          p99Ms: sequential.p99Ms,
          target: 'p95 < 30 ms',
          met: (sequential.p95Ms ?? Number.POSITIVE_INFINITY) < 30,
        },
        {
          case: 'server.pet-search',
          metric: `API, ${context.connections} connections`,
          requestsPerSecond: loaded.requestsPerSecond,
          p50Ms: loaded.p50Ms,
          p99Ms: loaded.p99Ms,
        },
      ];
    },
  },
  ...serverColdCases,
];
