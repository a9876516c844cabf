import { type ComboboxItem, Select, type SelectProps } from '@mantine/core';
import { useTypeToChoose } from '../lib/type-to-choose';

type Option = { value: string; label: string };

/**
 * Mantine's Select with a list that cannot be typed in, where letters typed on it choose an option as in the browser's
 * own select ("d" for Dog, "f" twice for the second option starting with F). Its options are value/label pairs.
 */
export function ChoiceSelect({
  data,
  value,
  onChange,
  onKeyDown,
  ...props
}: Omit<SelectProps, 'data' | 'searchable'> & { data: readonly Option[] }) {
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
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) typed(event);
      }}
    />
  );
}
