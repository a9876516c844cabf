import { type ComboboxItem, Select, type SelectProps } from '@mantine/core';
import { useRef } from 'react';
import { useTypeToChoose } from '../lib/type-to-choose';
import type { Option } from '../lib/words';

/**
 * Mantine's Select with a list that cannot be typed in, where letters typed on it while its list is closed choose an
 * option as in the browser's own select ("d" for Dog, "f" twice for the second option starting with F). With the list
 * open, the arrow keys and Enter choose, as Mantine has them (its highlight does not follow typed letters, and Enter
 * would choose the highlighted option over a typed one).
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
  const open = useRef(false);
  const typed = useTypeToChoose(data, value ?? null, (next) => {
    const option = data.find((each) => each.value === next);
    if (option) onChange?.(next, option as ComboboxItem);
  });
  return (
    <Select
      {...props}
      data={data as Option[]}
      value={value}
      onChange={onChange}
      onDropdownOpen={() => {
        open.current = true;
        onDropdownOpen?.();
      }}
      onDropdownClose={() => {
        open.current = false;
        onDropdownClose?.();
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented && !open.current && !props.readOnly && !props.disabled) typed(event);
      }}
    />
  );
}
