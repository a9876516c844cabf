import type { MirrorPetQuery, Presence } from '../../../shared/desk-api';

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
    ...(filters.status && { status: filters.status }),
    ...(filters.presence && { presence: filters.presence }),
    ...(filters.pendingOnly && { pendingOnly: true }),
    // Best match means name order until there is something to match.
    sort: filters.sort === 'relevance' && !text ? 'name' : filters.sort,
    direction: filters.direction,
  };
}
