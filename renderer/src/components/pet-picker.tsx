import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useDeskQuery } from '../bridge/hooks';
import { humanize } from '../lib/words';

/** Choose pets from the mirror by typing part of a name, breed or microchip. */
export function PetPicker({
  label,
  description,
  value,
  onChange,
  max,
  error,
}: {
  label: string;
  description?: string;
  value: string[];
  onChange(ids: string[]): void;
  max?: number;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const found = useDeskQuery('mirror.pets.list', {
    ...(debounced && { search: debounced }),
    sort: 'name',
    limit: 30,
  });
  // Remember the labels of chosen pets: they may drop out of the current search results.
  const [labels, setLabels] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!found.data) return;
    setLabels((previous) => {
      const next = { ...previous };
      for (const { record } of found.data?.items ?? []) {
        next[record.id] =
          `${record.name} · ${humanize(record.species)}${record.custom_id ? ` · ${record.custom_id}` : ''}`;
      }
      return next;
    });
  }, [found.data]);
  const ids = [...new Set([...value, ...(found.data?.items ?? []).map((item) => item.record.id)])];

  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length === 0 ? 'Type a name, breed or microchip' : undefined}
      data={ids.map((id) => ({ value: id, label: labels[id] ?? id }))}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      maxValues={max}
      nothingFoundMessage={found.loading ? 'Searching…' : 'No pet matches'}
      error={error}
      hidePickedOptions
      clearable
    />
  );
}
