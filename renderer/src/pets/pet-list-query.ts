import type { MirrorPetQuery, Presence } from '../../../shared/desk-api';
import { rememberForScreen } from '../lib/remembered';

type PetSort = NonNullable<MirrorPetQuery['sort']>;

/** What the Pets screen's search box and filters hold. */
export interface PetListFilters<S extends PetSort = PetSort> {
  search: string;
  species: string | null;
  status: string | null;
  presence: Presence[] | undefined;
  pendingOnly: boolean;
  sort: S;
  direction: 'asc' | 'desc';
}

/** The Status filter's choice of every pet still in the shelter's care (no status is written so: it has a colon). */
export const IN_CARE_STATUS = 'in-care:';

/** The filters of a Pets screen opened for the first time (a new tab). */
export const FIRST_PET_FILTERS: PetListFilters<'relevance'> = {
  search: '',
  species: null,
  status: null,
  presence: undefined,
  pendingOnly: false,
  sort: 'relevance',
  direction: 'asc',
};

/**
 * The list query of the screen's filters (without paging). first-list-page.ts asks the first page of a new tab's query
 * with it before React mounts, and that answer is only used when the screen asks the very same question.
 */
export function petListQuery<S extends PetSort>(
  filters: PetListFilters<S>,
): Omit<MirrorPetQuery, 'limit' | 'offset' | 'sort'> & { sort: S | 'name' } {
  const text = filters.search.trim();
  return {
    ...(text && { search: text }),
    ...(filters.species && { species: filters.species as MirrorPetQuery['species'] }),
    ...(filters.status === IN_CARE_STATUS ? { inCare: true } : filters.status && { status: filters.status }),
    ...(filters.presence && { presence: filters.presence }),
    ...(filters.pendingOnly && { pendingOnly: true }),
    // Best match means name order until there is something to match.
    sort: filters.sort === 'relevance' && !text ? 'name' : filters.sort,
    direction: filters.direction,
  };
}

/**
 * Opens the Pets screen on the pets in care, as the Overview counts them, or on those of one `status` or one
 * `species` among them; the other filters are cleared.
 */
export function showPetsInCare(only: { status?: string; species?: string } = {}): void {
  rememberForScreen('pets', {
    search: '',
    species: only.species ?? null,
    status: only.status ?? IN_CARE_STATUS,
    visibility: 'all',
    pendingOnly: false,
  });
}

/**
 * How many pets the list can show with no search or filter, the "of N" of its count: removed ones (deleted at the
 * shelter, or taken away by a restore) are never listed, so they are not counted.
 */
export function petsTheListCanShow(counts: { pets: Record<Presence, number> }): number {
  return counts.pets.listed + counts.pets.unlisted + counts.pets.local;
}
