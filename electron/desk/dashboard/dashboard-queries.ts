import type { Dashboard } from '../../../shared/desk-api/dashboard';
import { ADOPTED_ON_SQL, EFFECTIVE_JSON_SQL, type MirrorDb, statement } from '../mirror';

/**
 * Statuses that mean the animal has left the shelter's care. Every other status, custom labels included, counts as in
 * care (a custom "Meet and greet" or "Behavior hold" animal is still in a kennel or a foster home).
 */
export const OUT_OF_CARE_STATUSES = [
  'adopted',
  'archived',
  'deceased',
  'escaped',
  'euthanized',
  'lost',
  'returnedToOwner',
  'transferred',
] as const;

const OUT_OF_CARE_SQL = OUT_OF_CARE_STATUSES.map((status) => `'${status.toLowerCase()}'`).join(', ');
const IN_CARE = `presence != 'removed' AND lower(status) NOT IN (${OUT_OF_CARE_SQL})`;

/** Length-of-stay groups (days since intake, upper bound exclusive). */
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
 * The dashboard's figures for `today` (YYYY-MM-DD, the desk's calendar date), from the mirror alone: records the
 * server deleted are left out; pending local edits count (the desk shows what it will send). A handful of grouped
 * scans of the slim list tables plus one index range for adoptions, so it stays fast on a large shelter.
 */
export function computeDashboard(db: MirrorDb, today: string): Dashboard {
  const groups = statement(
    db,
    `SELECT status, species, COUNT(*) AS n FROM pet_list WHERE ${IN_CARE} GROUP BY status, species`,
  ).all() as { status: string; species: string; n: number }[];
  const byStatus = new Map<string, number>();
  const bySpecies = new Map<string, number>();
  for (const row of groups) {
    byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.n);
    bySpecies.set(row.species, (bySpecies.get(row.species) ?? 0) + row.n);
  }
  const sortedCounts = <K extends string>(map: Map<string, number>, key: K) =>
    [...map]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([name, count]) => ({ [key]: name, count }) as Record<K, string> & { count: number });

  const months = lastTwelveMonths(today);
  const first = months[0] as string;
  const end = nextMonth(months[11] as string);
  const intakeRows = statement(
    db,
    `SELECT substr(intake_date, 1, 7) AS month, COUNT(*) AS n FROM pet_list
     WHERE presence != 'removed' AND intake_date >= ? AND intake_date < ? GROUP BY month`,
  ).all(first, end) as { month: string; n: number }[];
  const adoptionRows = statement(
    db,
    `SELECT substr(${ADOPTED_ON_SQL}, 1, 7) AS month, COUNT(*) AS n FROM pet
     WHERE ${ADOPTED_ON_SQL} IS NOT NULL AND ${ADOPTED_ON_SQL} >= ? AND ${ADOPTED_ON_SQL} < ?
       AND presence != 'removed' GROUP BY month`,
  ).all(first, end) as { month: string; n: number }[];
  const countOf = (rows: { month: string; n: number }[], month: string) =>
    rows.find((row) => row.month === month)?.n ?? 0;

  const stay = statement(
    db,
    `SELECT MAX(0, CAST(julianday(?) - julianday(substr(intake_date, 1, 10)) AS INTEGER)) AS days, COUNT(*) AS n
     FROM pet_list WHERE ${IN_CARE} AND julianday(substr(intake_date, 1, 10)) IS NOT NULL GROUP BY days`,
  ).all(today) as { days: number; n: number }[];
  const buckets = STAY_BUCKETS.map((bucket) => ({ label: bucket.label, count: 0 }));
  for (const row of stay) {
    const index = STAY_BUCKETS.findIndex((bucket) => row.days < bucket.below);
    const target = buckets[index];
    if (target) target.count += row.n;
  }
  const adoptedStay = statement(
    db,
    `SELECT MAX(0, CAST(julianday(substr(${ADOPTED_ON_SQL}, 1, 10)) - julianday(substr(intake_date, 1, 10)) AS INTEGER))
       AS days, COUNT(*) AS n
     FROM pet WHERE ${ADOPTED_ON_SQL} IS NOT NULL AND ${ADOPTED_ON_SQL} >= ? AND ${ADOPTED_ON_SQL} < ?
       AND presence != 'removed'
       AND julianday(substr(intake_date, 1, 10)) IS NOT NULL GROUP BY days`,
  ).all(first, end) as { days: number; n: number }[];

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
      total: groups.reduce((total, row) => total + row.n, 0),
      byStatus: sortedCounts(byStatus, 'status'),
      bySpecies: sortedCounts(bySpecies, 'species'),
    },
    months: months.map((month) => ({
      month,
      intakes: countOf(intakeRows, month),
      adoptions: countOf(adoptionRows, month),
    })),
    lengthOfStay: {
      inCare: { ...summarize(stay), buckets },
      adopted: summarize(adoptedStay),
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
