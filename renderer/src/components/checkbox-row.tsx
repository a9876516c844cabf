import { Checkbox, Group, type MantineSpacing } from '@mantine/core';

/** A row of checkboxes, each bound to one yes/no value of a form by its key. */
export function CheckboxRow<K extends string>({
  boxes,
  checked,
  onChange,
  gap = 'lg',
}: {
  boxes: readonly { key: K; label: string }[];
  checked: Readonly<Record<K, boolean>>;
  onChange(key: K, checked: boolean): void;
  gap?: MantineSpacing;
}) {
  return (
    <Group gap={gap}>
      {boxes.map(({ key, label }) => (
        <Checkbox
          key={key}
          label={label}
          checked={checked[key]}
          onChange={(event) => onChange(key, event.currentTarget.checked)}
        />
      ))}
    </Group>
  );
}
