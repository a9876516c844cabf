import { listInWords } from '../../../shared/wording/lists';
import { humanize } from '../lib/words';

interface ChosenPet {
  name: string;
  status: string;
}

/**
 * The pet an approval's dialog ticks to begin with: the first one Available, else the first not yet placed (adopted
 * or fostered), else the first. Ticking a pet still in Intake while the one free to go waits unticked would have a
 * quick Approve send the wrong animal home.
 */
export function firstToPlace<T extends ChosenPet>(pets: readonly T[]): T | undefined {
  return (
    pets.find((pet) => /^available$/i.test(pet.status)) ??
    pets.find((pet) => !/^(adopted|fostered)$/i.test(pet.status)) ??
    pets[0]
  );
}

/**
 * What an approval should say before it goes ahead about pets chosen that are not available: a pet on Hold (kept for
 * a vet check, or for another family), or, for a foster, one adopted or fostered already, is marked all the same
 * when approved, so staff check first. Undefined when every pet chosen is available; an adoption of a pet adopted
 * already is refused by the shelter and said apart.
 */
export function notYetAvailableNotice(chosen: readonly ChosenPet[], adoption: boolean): string | undefined {
  const ready = adoption ? /^(available|adopted)$/i : /^available$/i;
  const waiting = chosen.filter((pet) => !ready.test(pet.status));
  if (waiting.length === 0) return undefined;
  const each = waiting.map((pet) => `${pet.name}’s status is ${humanize(pet.status)}`);
  const outcome = adoption ? 'adopted' : 'fostered';
  const them = waiting.length > 1 ? 'them' : waiting[0]?.name;
  return `${listInWords(each)}, not Available: approving marks ${them} ${outcome} all the same. Check first that ${waiting.length > 1 ? 'they are' : 'it is'} free to go.`;
}
