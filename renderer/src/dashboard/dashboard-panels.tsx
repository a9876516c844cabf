import { BarChart, DonutChart } from '@mantine/charts';
import {
  Anchor,
  Card,
  ColorSwatch,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import type { Dashboard } from '../../../shared/desk-api';
import { humanize, statusColor } from '../lib/words';
import { showPetsInCare } from '../pets/pet-list-query';
import { daysLabel, FigureTable, monthLabel } from './figure-table';

/**
 * The shade of each colour a chart mark (bar, sector) takes: the one with 3:1 contrast against the card in both
 * schemes (WCAG 1.4.11), white (light) and dark 6 (dark). Mantine's filled shades reach it in one scheme only.
 */
const CHART_SHADES: Record<string, number> = {
  teal: 8,
  blue: 6,
  grape: 6,
  cyan: 7,
  orange: 8,
  red: 7,
  violet: 4,
  gray: 6,
};

const chartColor = (color: string) => `${color}.${CHART_SHADES[color] ?? 6}`;

const SPECIES_COLORS: Record<string, string> = {
  dog: chartColor('orange'),
  cat: chartColor('violet'),
  rabbit: chartColor('teal'),
};

export function Panel({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" p="lg" component="section" aria-label={title}>
      <Stack gap={2} mb="md">
        <Title order={3} size="h4">
          {title}
        </Title>
        {hint && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
      </Stack>
      {children}
    </Card>
  );
}

/** A headline figure with one line of context; `href` makes it lead to the screen where it is acted on. */
export function Stat({
  label,
  value,
  detail,
  href,
  onFollow,
}: {
  label: string;
  value: number;
  detail: string;
  href?: string;
  /** Runs as the link is followed (before the screen opens): to set what the list shows. */
  onFollow?: () => void;
}) {
  return (
    <Card withBorder radius="lg" p="lg" aria-label={label}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text fz={34} fw={700} lh={1.2} data-testid={`stat-${label}`}>
        {value.toLocaleString()}
      </Text>
      {href ? (
        <Anchor href={href} size="sm" onClick={onFollow}>
          {detail}
        </Anchor>
      ) : (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
    </Card>
  );
}

interface CountBar {
  label: string;
  count: number;
  color: string;
  /** Opens the list of what the bar counts: its label is then a link, named with the count ("Available pets: 12"). */
  follow?: { href: string; onFollow(): void; name: string };
}

/**
 * Labelled horizontal bars (label, bar, number): readable at any length of label, in light and dark. The bars and
 * numbers are hidden from screen readers (a `FigureTable` beside them carries the figures); a label that is a link
 * stays, so the list it opens is reached from the keyboard and by a screen reader too.
 */
function CountBars({ rows }: { rows: readonly CountBar[] }) {
  const max = Math.max(1, ...rows.map((row) => row.count));
  return (
    <Stack gap={8}>
      {rows.map((row) => (
        <Group key={row.label} gap="sm" wrap="nowrap">
          {row.follow ? (
            <Anchor
              href={row.follow.href}
              onClick={row.follow.onFollow}
              aria-label={row.follow.name}
              size="sm"
              w={170}
              truncate="end"
            >
              {row.label}
            </Anchor>
          ) : (
            <Text size="sm" w={170} truncate="end" aria-hidden="true">
              {row.label}
            </Text>
          )}
          <Progress
            value={(row.count / max) * 100}
            color={row.color}
            size="lg"
            radius="sm"
            style={{ flex: 1 }}
            aria-hidden="true"
          />
          <Text size="sm" fw={600} w={48} ta="right" aria-hidden="true">
            {row.count.toLocaleString()}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString()} ${count === 1 ? one : many}`;

const swatch = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

export function InCarePanels({ data }: { data: Dashboard }) {
  const { byStatus, bySpecies, total } = data.inCare;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Panel
        title="In care by status"
        hint={`${plural(total, 'animal')} not adopted, transferred or otherwise gone`}
      >
        <CountBars
          rows={byStatus.map((row) => ({
            label: humanize(row.status),
            count: row.count,
            color: chartColor(statusColor(row.status)),
            follow: {
              href: '#/pets',
              onFollow: () => showPetsInCare({ status: row.status }),
              name: `${humanize(row.status)} pets: ${row.count.toLocaleString()}`,
            },
          }))}
        />
        <FigureTable
          caption="Animals in care by status"
          columns={['Status', 'Animals']}
          rows={byStatus.map((row) => [humanize(row.status), row.count])}
        />
      </Panel>
      <Panel title="In care by species">
        <Group justify="center" gap="xl">
          <DonutChart
            aria-hidden="true"
            data={bySpecies.map((row) => ({
              name: humanize(row.species),
              value: row.count,
              color: SPECIES_COLORS[row.species] ?? chartColor('gray'),
            }))}
            size={180}
            thickness={28}
            chartLabel={`${total.toLocaleString()} in care`}
            withTooltip
            // Recharts makes the chart a focusable "application"; it is hidden here (the table carries the figures).
            pieChartProps={{ accessibilityLayer: false }}
            pieProps={{ rootTabIndex: -1 }}
          />
          <Stack gap={8}>
            {bySpecies.map((row) => (
              <Group key={row.species} gap="xs" wrap="nowrap">
                <ColorSwatch
                  color={swatch(SPECIES_COLORS[row.species] ?? chartColor('gray'))}
                  size={14}
                  aria-hidden="true"
                />
                <Anchor href="#/pets" size="sm" onClick={() => showPetsInCare({ species: row.species })}>
                  {humanize(row.species)}s <b>{row.count.toLocaleString()}</b>
                </Anchor>
              </Group>
            ))}
          </Stack>
        </Group>
        <FigureTable
          caption="Animals in care by species"
          columns={['Species', 'Animals']}
          rows={bySpecies.map((row) => [humanize(row.species), row.count])}
        />
      </Panel>
    </SimpleGrid>
  );
}

/** The month chart's bars, left to right; its legend lists them in the same order (not alphabetically). */
const MONTH_SERIES = [
  { name: 'Intakes', color: chartColor('blue') },
  { name: 'Adoptions', color: chartColor('teal') },
];

export function MonthsPanel({ data }: { data: Dashboard }) {
  const rows = data.months.map((row) => ({
    month: monthLabel(row.month, true),
    Intakes: row.intakes,
    Adoptions: row.adoptions,
  }));
  const intakes = data.months.reduce((sum, row) => sum + row.intakes, 0);
  const adoptions = data.months.reduce((sum, row) => sum + row.adoptions, 0);
  return (
    <Panel
      title="Intakes and adoptions, last 12 months"
      hint={`${plural(intakes, 'intake')}, ${plural(adoptions, 'adoption')}`}
    >
      <div aria-hidden="true">
        <BarChart
          h={260}
          data={rows}
          dataKey="month"
          series={MONTH_SERIES}
          withLegend
          legendProps={{
            itemSorter: (item) => MONTH_SERIES.findIndex((series) => series.name === item.value),
          }}
          yAxisLabel="Animals"
          tickLine="y"
          gridAxis="y"
          barChartProps={{ accessibilityLayer: false }}
        />
      </div>
      <FigureTable
        caption="Intakes and adoptions per month"
        columns={['Month', 'Intakes', 'Adoptions']}
        rows={data.months.map((row) => [monthLabel(row.month), row.intakes, row.adoptions])}
      />
    </Panel>
  );
}

export function StayPanel({ data }: { data: Dashboard }) {
  const { inCare, adopted } = data.lengthOfStay;
  const adoptedLine =
    adopted.count > 0
      ? `Adopted in the last 12 months: median ${daysLabel(adopted.medianDays)} from intake to adoption (${plural(adopted.count, 'adoption')}).`
      : 'No adoption with an intake date in the last 12 months.';
  return (
    <Panel
      title="Length of stay"
      hint={`In care now: median ${daysLabel(inCare.medianDays)}, average ${daysLabel(inCare.averageDays)}. ${adoptedLine}`}
    >
      <CountBars
        rows={inCare.buckets.map((row) => ({
          label: row.label,
          count: row.count,
          color: chartColor('grape'),
        }))}
      />
      <FigureTable
        caption="Animals in care by time since intake"
        columns={['Time since intake', 'Animals']}
        rows={inCare.buckets.map((row) => [row.label, row.count])}
      />
    </Panel>
  );
}

export function FostersPanel({ data }: { data: Dashboard }) {
  const { fosters } = data;
  return (
    <Panel
      title="Foster homes"
      hint={`${plural(fosters.active, 'active foster')} offer ${plural(fosters.places, 'place')}; ${plural(fosters.petsInFoster, 'pet')} in foster care.`}
    >
      {fosters.withCapacity.length === 0 ? (
        <Text size="sm" c="dimmed">
          No active foster has said how many animals they can take.
        </Text>
      ) : (
        <Table aria-label="Fosters with places" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Foster</Table.Th>
              <Table.Th ta="right">Places offered</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fosters.withCapacity.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td ta="right">{row.capacity}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Panel>
  );
}
