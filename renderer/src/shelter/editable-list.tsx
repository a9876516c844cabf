import { Button, Card, Group, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';

export interface ListColumn<T> {
  header: string;
  cell(item: T): ReactNode;
}

/**
 * A card of shelter settings that staff list, add and edit: a toolbar (what the list is, or a switch) with the add
 * button, a table with an Edit button per row (or a line saying there are none), and the editor of the row being
 * added (`undefined`) or edited, given a `close` to call when it is done.
 */
export function EditableList<T extends { id: string }>({
  label,
  items,
  columns,
  empty,
  addLabel,
  toolbar,
  intro,
  children,
  editor,
}: {
  /** The table's accessible name. */
  label: string;
  items: readonly T[];
  columns: readonly ListColumn<T>[];
  /** Shown instead of the table when there are no items. */
  empty: string;
  addLabel: string;
  /** Left of the add button. */
  toolbar: ReactNode;
  /** Between the toolbar and the table. */
  intro?: ReactNode;
  /** Below the table. */
  children?: ReactNode;
  editor(item: T | undefined, close: () => void): ReactNode;
}) {
  const [editing, setEditing] = useState<{ item: T | undefined }>();
  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="md">
        {toolbar}
        <Button
          leftSection={<IconPlus aria-hidden size={18} />}
          onClick={() => setEditing({ item: undefined })}
        >
          {addLabel}
        </Button>
      </Group>
      {intro}
      {items.length === 0 ? (
        <Text size="sm">{empty}</Text>
      ) : (
        <Table aria-label={label} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                {columns.map((column) => (
                  <Table.Td key={column.header}>{column.cell(item)}</Table.Td>
                ))}
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" onClick={() => setEditing({ item })}>
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {children}
      {editing && editor(editing.item, () => setEditing(undefined))}
    </Card>
  );
}
