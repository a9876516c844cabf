/** One measured figure of a bench case; `ratio` compares with a baseline measured in the same run. */
export interface BenchResult {
  case: string;
  metric: string;
  requestsPerSecond?: number;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  /** This measurement divided by its same-run baseline (requests per second). */
  ratio?: number;
  /** The target it is checked against, e.g. 'ratio >= 0.5' or 'p95 < 30 ms'. */
  target?: string;
  met?: boolean;
  note?: string;
}

export interface BenchContext {
  /** Seconds per load run. */
  duration: number;
  /** Concurrent connections of the load generator. */
  connections: number;
  log(message: string): void;
}

/**
 * A benchmark case. Add new cases as files in test/bench/cases/ and register them in cases/index.ts;
 * `npm run bench -- <filter>` runs the cases whose group or name starts with the filter.
 */
export interface BenchCase {
  name: string;
  /** First word of the filter, e.g. 'server', 'sync', 'outbox'. */
  group: string;
  description: string;
  run(context: BenchContext): Promise<BenchResult[]>;
}
