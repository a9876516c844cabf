import type { ImportPreview } from '../../../shared/desk-api';

/** What each column's target is, by header: the desk's match overridden by the person's choices. */
export type ChosenTargets = Record<string, string>;

/** Where a column's values go now: the person's choice, else the desk's match. */
export function targetOf(column: ImportPreview['columns'][number], chosen: ChosenTargets): string {
  return chosen[column.header] ?? column.target;
}

/** Whether any column, as mapped now, goes to a field of dates (so the order of day and month matters). */
export function mapsDates(preview: ImportPreview, chosen: ChosenTargets): boolean {
  const dateTargets = new Set(
    preview.targets.filter((target) => target.readsDates).map((target) => target.value),
  );
  return preview.columns.some((column) => dateTargets.has(targetOf(column, chosen)));
}
