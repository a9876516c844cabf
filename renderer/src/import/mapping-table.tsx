import { Badge, Select, Table, Text } from '@mantine/core';
import type { ImportPreview } from '../../../shared/desk-api';
import { SidewaysScroll } from '../components/sideways-scroll';
import { type ChosenTargets, targetOf } from './chosen-targets';

/** The first cells of a column, to recognise it by. */
function samples(preview: ImportPreview, index: number): string {
  return preview.preview
    .map((row) => (row[index] ?? '').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' · ');
}

/**
 * One row per column of the file: its header, a few of its values, and where its values go (a field, a custom
 * field, or nowhere), chosen from a list. Columns the desk could not match say so.
 */
export function MappingTable({
  preview,
  chosen,
  onChange,
}: {
  preview: ImportPreview;
  chosen: ChosenTargets;
  onChange: (header: string, target: string) => void;
}) {
  const options = preview.targets.map((target) => ({
    value: target.value,
    label: target.required ? `${target.label} (required)` : target.label,
  }));
  return (
    // As tall as the file has columns, in the page's scroll: a box of its own hid the columns past the ninth, which
    // a check then read without anyone having seen where they go. Only a narrow window scrolls it sideways.
    <SidewaysScroll label="Column mapping" minWidth={480}>
      <Table striped verticalSpacing="xs" aria-label="Column mapping">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column in the file</Table.Th>
            <Table.Th>First values</Table.Th>
            <Table.Th w="40%">Goes to</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.columns.map((column, index) => {
            const target = targetOf(column, chosen);
            const changed = chosen[column.header] !== undefined;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column is its place in the file (headers may repeat), and the list never reorders.
              <Table.Tr key={index}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {column.header || `(column ${index + 1})`}
                  </Text>
                  {column.source === 'unmatched' && !changed && (
                    <Badge size="xs" color="gray" variant="light">
                      not matched
                    </Badge>
                  )}
                  {changed && (
                    <Badge size="xs" color="blue" variant="light">
                      your choice
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" lineClamp={2} maw={360}>
                    {samples(preview, index) || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Where "${column.header}" goes`}
                    data={options}
                    value={target}
                    onChange={(value) => value && onChange(column.header, value)}
                    allowDeselect={false}
                    searchable
                    // Tabbing through the columns does not open each list over the table; a click, typing or
                    // Alt+Down does.
                    openOnFocus={false}
                    size="sm"
                    comboboxProps={{ withinPortal: true }}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </SidewaysScroll>
  );
}
