import { Table, VisuallyHidden } from '@mantine/core';

/**
 * The numbers behind a chart as a table: visually hidden (the chart shows them), read by screen readers in place of
 * the chart, which is hidden from them.
 */
export function FigureTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
}) {
  return (
    <VisuallyHidden>
      <Table aria-label={caption}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column} scope="col">
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={String(row[0])}>
              {row.map((cell, index) =>
                index === 0 ? (
                  <Table.Th key={columns[index]} scope="row">
                    {cell}
                  </Table.Th>
                ) : (
                  <Table.Td key={columns[index]}>
                    {typeof cell === 'number' ? cell.toLocaleString() : cell}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </VisuallyHidden>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "2026-03" → "Mar 2026", or short "Mar ’26" (not "Mar 26", which reads as the 26th), from the string (calendar
 * months, no time zone).
 */
export function monthLabel(month: string, short = false): string {
  const name = MONTHS[Number(month.slice(5, 7)) - 1] ?? month;
  return short ? `${name} ’${month.slice(2, 4)}` : `${name} ${month.slice(0, 4)}`;
}

/** "12 days", "1 day", "—". */
export function daysLabel(days: number | null): string {
  if (days === null) return '—';
  const rounded = Math.round(days);
  return rounded === 1 ? '1 day' : `${rounded.toLocaleString()} days`;
}
