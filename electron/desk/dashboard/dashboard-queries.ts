import { type Dashboard, OUT_OF_CARE_STATUSES } from '../../../shared/desk-api/dashboard';
import {
  EFFECTIVE_JSON_SQL,
  type MirrorDb,
  searchIndexWatermark,
  statement,
  UNCOUNTED_ADOPTIONS_SQL,
  UNCOUNTED_CARE_SQL,
} from '../mirror';

/** Length-of-stay groups (days since intake, upper bound exclusive); an intake booked ahead has no stay yet. */
const STAY_BUCKETS = [
  { label: 'Under 1 week', below: 7 },
  { label: '1-4 weeks', below: 29 },
  { label: '1-3 months', below: 92 },
  { label: '3-6 months', below: 183 },
  { label: '6-12 months', below: 366 },
  { label: 'Over a year', below: Number.POSITIVE_INFINITY },
];

/** The 12 calendar months ending with `today`'s, as YYYY-MM, oldest first (string arithmetic, no time zones). */
export function lastTwelveMonths(today: string): string[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return Array.from({ length: 12 }, (_, index) => {
    const offset = month - 1 - (11 - index);
    const y = year + Math.floor(offset / 12);
    const m = ((offset % 12) + 12) % 12;
    return `${y}-${String(m + 1).padStart(2, '0')}`;
  });
}

function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** Median and average of a histogram of day counts. */
function summarize(histogram: ReadonlyArray<{ days: number; n: number }>): {
  count: number;
  medianDays: number | null;
  averageDays: number | null;
} {
  const sorted = [...histogram].sort((a, b) => a.days - b.days);
  const count = sorted.reduce((total, row) => total + row.n, 0);
  if (count === 0) return { count, medianDays: null, averageDays: null };
  const total = sorted.reduce((sum, row) => sum + row.days * row.n, 0);
  const middle = (count - 1) / 2;
  let seen = 0;
  let low: number | undefined;
  let high: number | undefined;
  for (const row of sorted) {
    if (low === undefined && seen + row.n > Math.floor(middle)) low = row.days;
    if (high === undefined && seen + row.n > Math.ceil(middle)) high = row.days;
    seen += row.n;
  }
  return {
    count,
    medianDays: ((low ?? 0) + (high ?? 0)) / 2,
    averageDays: Math.round((total / count) * 10) / 10,
  };
}

function outboxCounts(db: MirrorDb): { waiting: number; needsAttention: number } {
  const exists = statement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").get();
  if (!exists) return { waiting: 0, needsAttention: 0 };
  const rows = statement(db, 'SELECT state, COUNT(*) AS n FROM outbox GROUP BY state').all() as {
    state: string;
    n: number;
  }[];
  const of = (state: string) => rows.find((row) => row.state === state)?.n ?? 0;
  return { waiting: of('pending') + of('needs-attention'), needsAttention: of('needs-attention') };
}

/**
 * Days from one calendar date (YYYY-MM-DD, or a date-time whose first ten characters are one) to another, counted on
 * the calendar. Day numbers are cached per date: a large shelter has many pets but few distinct dates.
 */
function makeDayCounter(): (from: string, to: string) => number | undefined {
  const cache = new Map<string, number>();
  const dayNumber = (value: string) => {
    const date = value.slice(0, 10);
    let day = cache.get(date);
    if (day === undefined) {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
      day = match
        ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000
        : Number.NaN;
      cache.set(date, day);
    }
    return day;
  };
  return (from, to) => {
    const days = dayNumber(to) - dayNumber(from);
    return Number.isNaN(days) ? undefined : Math.max(0, Math.round(days));
  };
}

function addTo<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function sortedCounts<K extends string>(
  map: Map<string, number>,
  key: K,
): Array<Record<K, string> & { count: number }> {
  return [...map]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => ({ [key]: name, count }) as Record<K, string> & { count: number });
}

/**
 * The dashboard's figures for `today` (YYYY-MM-DD, the desk's calendar date), from the mirror alone: records the
 * server deleted are left out; pending local edits count (the desk shows what it will send). The pet figures come
 * from counts kept by triggers (migration 2502): pets per status, species and intake day, adoptions per adoption
 * date and intake day; the day groups are folded here, so no per-row date arithmetic runs in SQL. Dates are read as calendar dates from their strings.
 */
export function computeDashboard(db: MirrorDb, today: string): Dashboard {
  const months = lastTwelveMonths(today);
  const first = months[0] as string;
  const end = nextMonth(months[11] as string);
  const daysBetween = makeDayCounter();

  // Three grouped reads of the small counts table (a few thousand rows), folded in SQL: JS sees tens of rows.
  const outOfCare = OUT_OF_CARE_STATUSES.map((status) => status.toLowerCase());
  const placeholders = outOfCare.map(() => '?').join(', ');
  const out = new Set<string>(outOfCare);
  const byStatus = new Map<string, number>();
  const bySpecies = new Map<string, number>();
  let total = 0;
  // During a bulk load the pets above its watermark are not in the counts tables yet (migrations 2604, 2654): counted
  // here.
  const watermark = searchIndexWatermark(db, 'pet');
  const withUncounted = (table: string, columns: string, uncounted: string) =>
    watermark === undefined
      ? { from: table, params: [] as unknown[] }
      : {
          from: `(SELECT ${columns} FROM ${table} UNION ALL ${uncounted})`,
          params: [watermark] as unknown[],
        };
  const care = withUncounted('pet_care_count', 'status, species, intake_day, n', UNCOUNTED_CARE_SQL);
  const adopted = withUncounted('pet_adoption_count', 'adopted_on, intake_day, n', UNCOUNTED_ADOPTIONS_SQL);
  const kinds = statement(
    db,
    `SELECT status, species, SUM(n) AS n FROM ${care.from} GROUP BY status, species`,
  ).all(...care.params) as { status: string; species: string; n: number }[];
  for (const row of kinds) {
    if (out.has(row.status.toLowerCase())) continue;
    total += row.n;
    addTo(byStatus, row.status, row.n);
    addTo(bySpecies, row.species, row.n);
  }
  const intakes = new Map<string, number>();
  const intakeRows = statement(
    db,
    `SELECT substr(intake_day, 1, 7) AS month, SUM(n) AS n FROM ${care.from}
     WHERE intake_day >= ? AND intake_day < ? GROUP BY month`,
  ).all(...care.params, first, end) as { month: string; n: number }[];
  for (const row of intakeRows) addTo(intakes, row.month, row.n);
  const stay = new Map<number, number>();
  const stayDays = statement(
    db,
    `SELECT intake_day, SUM(n) AS n FROM ${care.from}
     WHERE intake_day != '' AND intake_day <= ? AND lower(status) NOT IN (${placeholders}) GROUP BY intake_day`,
  ).all(...care.params, today, ...outOfCare) as { intake_day: string; n: number }[];
  for (const row of stayDays) {
    const days = daysBetween(row.intake_day, today);
    if (days !== undefined) addTo(stay, days, row.n);
  }
  const stayRows = [...stay].map(([days, n]) => ({ days, n }));
  const buckets = STAY_BUCKETS.map((bucket) => ({ label: bucket.label, count: 0 }));
  for (const { days, n } of stayRows) {
    const target = buckets[STAY_BUCKETS.findIndex((bucket) => days < bucket.below)];
    if (target) target.count += n;
  }

  const adoptionRows = statement(
    db,
    `SELECT adopted_on, NULLIF(intake_day, '') AS intake_date, n FROM ${adopted.from}
     WHERE adopted_on >= ? AND adopted_on < ?`,
  ).all(...adopted.params, first, end) as { adopted_on: string; intake_date: string | null; n: number }[];
  const adoptions = new Map<string, number>();
  const adoptedStay = new Map<number, number>();
  for (const row of adoptionRows) {
    addTo(adoptions, String(row.adopted_on).slice(0, 7), row.n);
    const days = row.intake_date ? daysBetween(row.intake_date, String(row.adopted_on)) : undefined;
    if (days !== undefined) addTo(adoptedStay, days, row.n);
  }

  const waiting = statement(
    db,
    `SELECT type, COUNT(*) AS n FROM person_list WHERE presence != 'removed' AND status = 'pending'
     AND type IN ('adopter', 'foster') GROUP BY type`,
  ).all() as { type: string; n: number }[];
  const waitingOf = (type: string) => waiting.find((row) => row.type === type)?.n ?? 0;

  const fosters = statement(
    db,
    `SELECT id, name, CAST(COALESCE(json_extract(${EFFECTIVE_JSON_SQL}, '$.capacity'), 0) AS INTEGER) AS capacity
     FROM person WHERE type = 'foster' AND status = 'active' AND presence != 'removed'`,
  ).all() as { id: string; name: string; capacity: number }[];
  const places = fosters.reduce((total, row) => total + Math.max(0, row.capacity), 0);
  const { n: petsInFoster } = statement(
    db,
    `SELECT COUNT(*) AS n FROM pet_list WHERE status = 'fostered' COLLATE NOCASE AND presence != 'removed'`,
  ).get() as { n: number };
  const { n: records } = statement(db, 'SELECT COUNT(*) AS n FROM local_edit').get() as { n: number };

  return {
    today,
    inCare: {
      total,
      byStatus: sortedCounts(byStatus, 'status'),
      bySpecies: sortedCounts(bySpecies, 'species'),
    },
    months: months.map((month) => ({
      month,
      intakes: intakes.get(month) ?? 0,
      adoptions: adoptions.get(month) ?? 0,
    })),
    lengthOfStay: {
      inCare: { ...summarize(stayRows), buckets },
      adopted: summarize([...adoptedStay].map(([days, n]) => ({ days, n }))),
    },
    applications: {
      waiting: waitingOf('adopter') + waitingOf('foster'),
      adopters: waitingOf('adopter'),
      fosters: waitingOf('foster'),
    },
    fosters: {
      active: fosters.length,
      places,
      petsInFoster,
      free: Math.max(0, places - petsInFoster),
      withCapacity: fosters
        .filter((row) => row.capacity > 0)
        .sort((a, b) => b.capacity - a.capacity || a.name.localeCompare(b.name))
        .slice(0, 8),
    },
    sync: { ...outboxCounts(db), records },
  };
}
