import { Alert, Group, Paper, ScrollArea, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { columnsSharingTargets, type ImportPreview, type ImportReport } from '../../../shared/desk-api';
import { defaultedMeaning } from '../../../shared/wording/import-defaults';
import { textForScreen } from './reason-text';
import { rejectedHeading } from './rejected-heading';
import { SHARED_EMAILS_LABEL } from './shared-emails';

function Figure({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={tone}>
        {value.toLocaleString()}
      </Text>
    </Paper>
  );
}

/** Rows a report's table draws at most. */
const LISTED_ROWS = 500;

/** A table of the file's rows by line, scrolled within the report (at most 500 rows drawn). */
function LineTable({
  label,
  headers,
  rows,
}: {
  label: string;
  /** Each column's header, with its width where it is not the last. */
  headers: Array<{ text: string; width?: number }>;
  rows: Array<{ key: string; cells: ReactNode[] }>;
}) {
  return (
    <ScrollArea.Autosize mah={320} type="auto" mb="md">
      <Table striped aria-label={label} verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header) => (
              <Table.Th key={header.text} w={header.width}>
                {header.text}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.slice(0, LISTED_ROWS).map((row) => (
            <Table.Tr key={row.key}>
              {row.cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns, in order.
                <Table.Td key={index}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

/** Values imported as written that may be slips (a microchip of a length no chip has): to check on the pets. */
function NotesTable({ report, done }: { report: ImportReport; done: boolean }) {
  const count = report.totals.notes;
  const values = count === 1 ? 'value' : 'values';
  return (
    <>
      <Title order={3} size="h5" mb="xs">
        {count.toLocaleString()} {values} to check
      </Title>
      <Text size="sm" mb="xs">
        {count === 1
          ? `${done ? 'Imported' : 'It is imported'} as the file has it, but it looks like a slip: check it against the animal or its papers.`
          : `${done ? 'Imported' : 'They are imported'} as the file has them, but they look like slips: check them against the animals or their papers.`}
        {count > LISTED_ROWS && ` The first ${LISTED_ROWS.toLocaleString()} are listed.`}
      </Text>
      <LineTable
        label="Values to check"
        headers={[
          { text: 'Line', width: 80 },
          { text: 'Column', width: 200 },
          { text: 'Value', width: 200 },
          { text: 'Why' },
        ]}
        rows={report.notes.map((item) => ({
          key: `${item.line}-${item.column}`,
          cells: [item.line, item.column, item.value, item.note],
        }))}
      />
    </>
  );
}

/** How the report names the fields no column filled (their values in words: `defaultedMeaning`). */
const DEFAULTED_LABELS: Record<string, string> = {
  age_category: 'age',
  show_public: 'shown publicly',
  spayed: 'spayed or neutered',
};

const MATCHED_BY: Record<ImportReport['matches'][number]['by'], string> = {
  id: 'record id',
  custom_id: 'shelter id',
  microchip: 'microchip',
  email: 'email',
  'earlier-import': 'an earlier import of the row',
  'earlier-import-read-again': 'an earlier import of the row, read differently then',
};
const OUTCOMES: Record<ImportReport['matches'][number]['outcome'], { checked: string; done: string }> = {
  skipped: { checked: 'Left as it is', done: 'Left as it was' },
  updated: { checked: 'Updated with the file’s values', done: 'Updated' },
  unchanged: { checked: 'Nothing to change', done: 'Nothing to change' },
};

/** Which record on the desk each matching row stands for, so an update never lands on a record by surprise. */
function MatchesTable({
  report,
  done,
  updating,
}: {
  report: ImportReport;
  done: boolean;
  updating: boolean;
}) {
  const shown = report.matches.slice(0, 200);
  // A check ran before the choice to update: what the import will do follows the choice as it is now.
  const outcomeOf = (match: ImportReport['matches'][number]) =>
    done || match.outcome === 'unchanged'
      ? match.outcome
      : updating && report.kind === 'pets' && match.by !== 'earlier-import'
        ? 'updated'
        : 'skipped';
  return (
    <>
      <Title order={3} size="h5" mb="xs">
        Already on the desk
        {report.totals.existing > shown.length
          ? ` (the first ${shown.length} of ${report.totals.existing})`
          : ''}
      </Title>
      {!done && report.matches.some((match) => match.fix === 'shared-email') && (
        <Text size="sm" mb="xs">
          Some rows were found by their email under another name: if they are different people of one
          household, tick “{SHARED_EMAILS_LABEL}” above, then check again.
        </Text>
      )}
      <ScrollArea.Autosize mah={240} type="auto" mb="md">
        <Table striped aria-label="Rows already on the desk" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>Line</Table.Th>
              <Table.Th>On the desk</Table.Th>
              <Table.Th>Found by</Table.Th>
              <Table.Th>{done ? 'What happened' : 'What the import does'}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((match) => (
              <Table.Tr key={match.line}>
                <Table.Td>{match.line}</Table.Td>
                <Table.Td>
                  {match.existingName}
                  {match.existingSpecies ? ` (${match.existingSpecies})` : ''}
                </Table.Td>
                <Table.Td>
                  {MATCHED_BY[match.by]}
                  {match.fix === 'shared-email' ? ', under another name' : ''}
                </Table.Td>
                <Table.Td>{OUTCOMES[outcomeOf(match)][done ? 'done' : 'checked']}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </>
  );
}

/** A check's or an import's outcome: the totals, each rejected row (line, column, reason) and repeated rows. */
export function ReportView({
  report,
  targets = [],
  updating = false,
  showPublic,
  saveRejected,
}: {
  report: ImportReport;
  /** The fields the columns can go to, for their labels. */
  targets?: ImportPreview['targets'];
  updating?: boolean;
  /** The choice as it is now, which a check made before it was changed does not know yet. */
  showPublic?: boolean;
  /** What saves the rejected rows to put right (shown under their heading). */
  saveRejected?: ReactNode;
}) {
  const done = !report.dryRun && !report.blocked;
  const defaults =
    !done && showPublic !== undefined && report.defaults.show_public !== undefined
      ? { ...report.defaults, show_public: String(showPublic) }
      : report.defaults;
  return (
    <section aria-label={report.dryRun ? 'Check of the file' : 'Import result'}>
      {done ? (
        <Alert
          color="sage"
          variant="light"
          icon={<IconCircleCheck aria-hidden />}
          title="Imported"
          role="status"
          mb="md"
        >
          {textForScreen(report.summary)}
        </Alert>
      ) : (
        <Alert
          color={report.totals.rejected > 0 ? 'yellow' : 'blue'}
          variant="light"
          icon={
            report.totals.rejected > 0 ? <IconAlertTriangle aria-hidden /> : <IconCircleCheck aria-hidden />
          }
          title={report.dryRun ? 'Check of the file' : 'Nothing imported'}
          role="status"
          mb="md"
        >
          {textForScreen(report.summary)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="md">
        <Figure label="Rows" value={report.rows} />
        <Figure
          label={done ? 'Imported' : 'New'}
          value={done ? report.imported : report.totals.new}
          tone="sage"
        />
        <Figure label="Already on the desk" value={report.totals.existing} />
        <Figure
          label="Rejected"
          value={report.totals.rejected}
          tone={report.totals.rejected ? 'red' : undefined}
        />
      </SimpleGrid>
      {report.columns.some((column) => column.source === 'unmatched') && (
        <Text size="sm" mb="md">
          Left out, as no field matched them:{' '}
          {report.columns
            .filter((column) => column.source === 'unmatched')
            .map((column) => `“${column.header}”`)
            .join(', ')}
          . To bring one in, choose where it goes under Columns, then check again.
        </Text>
      )}
      {columnsSharingTargets(report.columns).map(({ target, headers }) => (
        <Text size="sm" mb="md" key={target}>
          {headers.map((header) => `“${header}”`).join(' + ')} are joined into{' '}
          {targets.find((option) => option.value === target)?.label ?? target}, in that order.
        </Text>
      ))}
      {Object.keys(defaults).length > 0 && (
        <Text size="sm" c="dimmed" mb="md">
          No column for{' '}
          {Object.entries(defaults)
            .map(
              ([field, value]) =>
                `${DEFAULTED_LABELS[field] ?? field.replace('_', ' ')} (each row: ${defaultedMeaning(field, value, 'until you show them')})`,
            )
            .join(', ')}
          .
        </Text>
      )}
      {report.matches.length > 0 && <MatchesTable report={report} done={done} updating={updating} />}
      {report.rejected.length > 0 && (
        <>
          <Title order={3} size="h5" mb="xs">
            {rejectedHeading(report.rejected.length, report.totals.rejected)}
          </Title>
          {saveRejected}
          {report.rejected.some((problem) => problem.fix === 'date-order') && (
            <Text size="sm" mb="xs">
              Some dates read either way round, or only the other way round from the order chosen: choose
              which comes first under “Dates like 03/04/2025 are”, then check again.
            </Text>
          )}
          {report.rejected.some((problem) => problem.fix === 'shared-email') && (
            <Text size="sm" mb="xs">
              Some rows share an email with another row: if they are different people of one household, tick “
              {SHARED_EMAILS_LABEL}” above, then check again.
            </Text>
          )}
          <LineTable
            label="Rejected rows"
            headers={[{ text: 'Line', width: 80 }, { text: 'Column', width: 200 }, { text: 'Reason' }]}
            rows={report.rejected.map((problem) => ({
              key: `${problem.line}-${problem.column}-${problem.reason}`,
              cells: [problem.line, problem.column || '—', textForScreen(problem.reason)],
            }))}
          />
        </>
      )}
      {report.notes.length > 0 && <NotesTable report={report} done={done} />}
      {report.duplicates.length > 0 && (
        <Group gap={6} mb="md" align="flex-start" wrap="nowrap">
          <IconCopy size={18} aria-hidden />
          <Text size="sm">
            Twice in the file:{' '}
            {report.duplicates
              .slice(0, 20)
              .map(
                (item) => `line ${item.line} repeats line ${item.firstLine} (${item.column} ${item.value})`,
              )
              .join('; ')}
            .
          </Text>
        </Group>
      )}
    </section>
  );
}
