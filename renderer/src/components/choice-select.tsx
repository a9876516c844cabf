import { type ComboboxItem, Select, type SelectProps } from '@mantine/core';
import { useRef, useState } from 'react';
import { comboboxRows, enterPicksHighlighted, highlightRow } from '../lib/picker-enter';
import { useTypeToChoose } from '../lib/type-to-choose';
import type { Option } from '../lib/words';

/**
 * Mantine's Select with a list that cannot be typed in, where letters typed on it choose an option as in the browser's
 * own select ("d" for Dog, "f" twice for the second option starting with F): with the list closed they choose it at
 * once; with the list open they highlight it, and Enter picks it (so "Dog" and Enter, typed into the open list, pick
 * Dog). Letters that start no option open the list, so a guess that misses ("hea" for Health's Good) shows the choices.
 */
export function ChoiceSelect({
  data,
  value,
  onChange,
  onKeyDown,
  onDropdownOpen,
  onDropdownClose,
  ...props
}: Omit<SelectProps, 'data' | 'searchable'> & { data: readonly Option[] }) {
  const [opened, setOpened] = useState(false);
  const open = useRef(false);
  const openList = () => {
    open.current = true;
    setOpened(true);
    onDropdownOpen?.();
  };
  const typed = useTypeToChoose(
    data,
    value ?? null,
    (next) => {
      const option = data.find((each) => each.value === next);
      if (option) onChange?.(next, option as ComboboxItem);
    },
    (event) => {
      event.preventDefault();
      openList();
    },
  );
  const input = useRef<HTMLInputElement>(null);
  const highlighted = () => {
    const rows = input.current ? comboboxRows(input.current) : [];
    const at = rows.findIndex((row) => row.hasAttribute('data-combobox-selected'));
    return data[at]?.value ?? null;
  };
  // The option a word typed into the open list named: Enter on it keeps it, even when it is the one chosen already
  // (Mantine would take it back, as a click on the chosen option does where a list allows none).
  const typedOption = useRef<string | null>(null);
  const typedInList = useTypeToChoose(data, highlighted, (next, event) =>
    highlightRow(
      event.currentTarget,
      data.findIndex((each) => each.value === next),
    ),
  );
  return (
    <Select
      {...props}
      ref={input}
      data={data as Option[]}
      value={value}
      onChange={(next, option) => {
        if (next === null && value != null && typedOption.current === value) return;
        onChange?.(next, option);
      }}
      dropdownOpened={opened}
      onDropdownOpen={openList}
      onDropdownClose={() => {
        open.current = false;
        setOpened(false);
        typedOption.current = null;
        onDropdownClose?.();
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.defaultPrevented || props.readOnly || props.disabled) return;
        if (!open.current) {
          typed(event);
          return;
        }
        // Enter picks the row shown highlighted, also where Mantine lost its count of it (the same option chosen
        // again after the form was cleared or saved: Enter then did nothing and the field stayed empty).
        enterPicksHighlighted(event);
        if (event.key === 'Enter') return;
        typedInList(event);
        // A word that named an option (the key was taken for it): the option it names, highlighted now.
        if (event.defaultPrevented) typedOption.current = highlighted();
      }}
    />
  );
}
