import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { enterPicksOrWaits, highlightRow } from '../lib/picker-enter';
import { pickerLabel } from './picker-label';

/** Choose pets from the mirror by typing part of a name, breed, shelter id or microchip; available pets first. */
export function PetPicker({
  label,
  description,
  value,
  onChange,
  max,
  error,
  field,
}: {
  label: string;
  description?: string;
  value: string[];
  onChange(ids: string[]): void;
  max?: number;
  error?: string;
  /** The form's name of the field, for its error summary (`data-field`). */
  field?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const query = {
    ...(debounced && { search: debounced }),
    sort: debounced ? 'relevance' : 'name',
    limit: 30,
  } as const;
  // Available pets are the ones people apply for: they come first, the others after them.
  const available = useDeskQuery('mirror.pets.list', { ...query, status: 'available' });
  const found = useDeskQuery('mirror.pets.list', query);
  // Remember the labels of chosen pets: they may drop out of the current search results.
  const [labels, setLabels] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!found.data && !available.data) return;
    setLabels((previous) => {
      const next = { ...previous };
      for (const { record } of [...(available.data?.items ?? []), ...(found.data?.items ?? [])]) {
        next[record.id] = pickerLabel(record);
      }
      return next;
    });
  }, [found.data, available.data]);
  // A pet chosen before the list was searched (a sign-up begun on its page) is named from the mirror.
  const api = useDesk();
  const unnamed = value.filter((id) => labels[id] === undefined).join(' ');
  useEffect(() => {
    for (const id of unnamed.split(' ').filter(Boolean)) {
      api.call('mirror.pets.get', { id }).then(
        ({ record }) => setLabels((previous) => ({ ...previous, [record.id]: pickerLabel(record) })),
        () => undefined,
      );
    }
  }, [api, unnamed]);
  const availableIds = (available.data?.items ?? []).map((item) => item.record.id);
  const others = [...new Set([...(found.data?.items ?? []).map((item) => item.record.id), ...value])].filter(
    (id) => !availableIds.includes(id),
  );
  const option = (id: string) => ({ value: id, label: labels[id] ?? id });
  // Typing highlights the first match, so Enter picks it (see `highlightRow`), once the mirror's answer to the
  // words is listed: the picker clears its highlight with each keystroke, and the answer replaces the rows any arrow
  // pressed before it moved through.
  const input = useRef<HTMLInputElement>(null);
  const answered = debounced !== '' && debounced === search.trim() && !found.loading && !available.loading;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer listed, and each keystroke, is looked at.
  useEffect(() => {
    const element = input.current;
    if (answered && element && element === element.ownerDocument.activeElement) highlightRow(element, 0);
  }, [answered, search, found.data, available.data]);
  const data = [
    ...(availableIds.length > 0 ? [{ group: 'Available', items: availableIds.map(option) }] : []),
    ...(others.length > 0 ? [{ group: 'Other pets', items: others.map(option) }] : []),
  ];

  return (
    <MultiSelect
      ref={input}
      label={label}
      description={description}
      placeholder={value.length === 0 ? 'Type a name, breed, shelter id or microchip' : undefined}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      comboboxProps={{ withinPortal: true }}
      maxValues={max}
      nothingFoundMessage={found.loading || available.loading ? 'Searching…' : 'No pet matches'}
      error={error}
      data-field={field}
      hidePickedOptions
      clearable
      onKeyDown={enterPicksOrWaits}
    />
  );
}
