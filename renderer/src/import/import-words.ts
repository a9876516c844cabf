import type { ImportKind, ImportReport } from '../../../shared/desk-api';

export const KIND_WORDS: Record<ImportKind, [one: string, many: string]> = {
  pets: ['pet', 'pets'],
  adopters: ['adopter', 'adopters'],
  fosters: ['foster', 'fosters'],
};

/** The Import screen's choice of updating pets already on the desk, named where the screen points to it. */
export const UPDATE_EXISTING_LABEL = 'Update the pets already on the desk with the file’s values';

const counted = (kind: ImportKind, n: number) => `${n.toLocaleString()} ${KIND_WORDS[kind][n === 1 ? 0 : 1]}`;

/** The import button names what it writes: new records, updated ones, or both. */
export function importLabel(kind: ImportKind, adding: number, updating: number): string {
  if (adding === 0 && updating > 0) return `Update ${counted(kind, updating)}`;
  return `Import ${counted(kind, adding)}${updating > 0 ? `, update ${updating.toLocaleString()}` : ''}`;
}

/** Why a checked file offers no import: no rows, rows rejected, or rows on the desk already. */
export function nothingLeftWords(report: ImportReport): string {
  const { rows, totals, kind } = report;
  const [one, many] = KIND_WORDS[kind];
  if (rows === 0) return 'Nothing to import: the file has no rows under its header.';
  // Pets count as on the desk with nothing to update; people are matched by email and an import never updates them.
  const asTheFileHas = (them: string) => (kind === 'pets' ? `, as the file has ${them}` : '');
  if (totals.rejected === 0) {
    const which = totals.existing === 1 ? `the file’s only ${one}` : `every ${one} in the file`;
    return `Nothing to import: ${which} is on this desk already${asTheFileHas('it')}.`;
  }
  const rejected = `the rejected ${totals.rejected === 1 ? 'row is' : 'rows are'} put right: the table above says how`;
  if (totals.existing === 0) return `Nothing to import until ${rejected}.`;
  const other =
    totals.existing === 1
      ? `The other row is ${kind === 'adopters' ? 'an' : 'a'} ${one} on this desk already${asTheFileHas('it')}.`
      : `The other rows are ${many} on this desk already${asTheFileHas('them')}.`;
  return `Nothing to import until ${rejected}. ${other}`;
}
