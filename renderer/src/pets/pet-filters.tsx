import { SegmentedControl, Select, Switch, UnstyledButton } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { memo } from 'react';
import type { Presence } from '../../../shared/desk-api';
import { ChoiceSelect } from '../components/choice-select';
import { humanize, SPECIES_OPTIONS } from '../lib/words';
import { IN_CARE_STATUS } from './pet-list-query';

/**
 * The Pets screen's filters and sort. Memoized (their setters are stable), so typing in the search box re-renders
 * neither these selects nor their option lists.
 */

export const VISIBILITY: Record<string, { label: string; presence?: Presence[] }> = {
  all: { label: 'All' },
  public: { label: 'Public', presence: ['listed'] },
  hidden: { label: 'Not public', presence: ['unlisted'] },
  local: { label: 'New, not yet sent', presence: ['local'] },
};

const SORTS = [
  { value: 'relevance', label: 'Best match' },
  { value: 'name', label: 'Name' },
  { value: 'updated', label: 'Last changed' },
  { value: 'intake', label: 'Intake date' },
  { value: 'status', label: 'Status' },
  { value: 'species', label: 'Species' },
] as const;

export type Sort = (typeof SORTS)[number]['value'];

/** Species, status and sort (with its direction) beside the search box. */
export const PetFilterSelects = memo(function PetFilterSelects({
  species,
  onSpecies,
  status,
  onStatus,
  statuses,
  sort,
  onSort,
  effectiveSort,
  direction,
  onDirection,
}: {
  species: string | null;
  onSpecies(value: string | null): void;
  status: string | null;
  onStatus(value: string | null): void;
  statuses: readonly string[] | undefined;
  sort: Sort;
  onSort(value: Sort): void;
  effectiveSort: Sort;
  direction: 'asc' | 'desc';
  onDirection(value: 'asc' | 'desc'): void;
}) {
  return (
    <>
      <ChoiceSelect
        label="Species"
        placeholder="All species"
        data={SPECIES_OPTIONS}
        value={species}
        onChange={onSpecies}
        clearable
        w={150}
      />
      <Select
        label="Status"
        placeholder="All statuses"
        data={[
          { value: IN_CARE_STATUS, label: 'In care' },
          ...(statuses ?? []).map((value) => ({ value, label: humanize(value) })),
        ]}
        value={status}
        onChange={onStatus}
        clearable
        searchable
        w={190}
      />
      <ChoiceSelect
        label="Sort by"
        // Best match is name order until there is something to match: the choice says so meanwhile.
        data={SORTS.map((each) => ({
          value: each.value,
          label:
            each.value === 'relevance' && sort === 'relevance' && effectiveSort === 'name'
              ? 'Best match (name)'
              : each.label,
        }))}
        value={sort}
        onChange={(value) => value && onSort(value as Sort)}
        allowDeselect={false}
        w={184}
        rightSection={
          effectiveSort === 'relevance' ? undefined : (
            <UnstyledButton
              aria-label={direction === 'asc' ? 'Sorted ascending' : 'Sorted descending'}
              onClick={() => onDirection(direction === 'asc' ? 'desc' : 'asc')}
              style={{ display: 'flex', pointerEvents: 'all' }}
            >
              {direction === 'asc' ? (
                <IconSortAscending aria-hidden size={16} />
              ) : (
                <IconSortDescending aria-hidden size={16} />
              )}
            </UnstyledButton>
          )
        }
        rightSectionPointerEvents="all"
      />
    </>
  );
});

/** Which pets by where they stand with the server, and only those with unsent changes. */
export const PetVisibilityFilters = memo(function PetVisibilityFilters({
  visibility,
  onVisibility,
  pendingOnly,
  onPendingOnly,
}: {
  visibility: string;
  onVisibility(value: string): void;
  pendingOnly: boolean;
  onPendingOnly(value: boolean): void;
}) {
  return (
    <>
      <SegmentedControl
        aria-label="Visibility"
        size="xs"
        value={visibility}
        onChange={onVisibility}
        data={Object.entries(VISIBILITY).map(([value, each]) => ({ value, label: each.label }))}
      />
      <Switch
        label="Only pets with unsent changes"
        checked={pendingOnly}
        onChange={(event) => onPendingOnly(event.currentTarget.checked)}
      />
    </>
  );
});
