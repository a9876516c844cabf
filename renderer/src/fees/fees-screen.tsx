import { Anchor, Badge, Card, Group, Loader, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { IconReceipt2 } from '@tabler/icons-react';
import { SPECIES } from '../../../shared/contract';
import { useCurrency } from '../bridge/settings';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { describeWhen } from '../components/status-presentation';
import { useStandalone } from '../lib/connection';
import { useMetadataQuery } from '../lib/live-data';
import { formatFee, humanize } from '../lib/words';
import { openShelterSettings } from '../shelter/shelter-tab';

function signed(amount: number, currency: string): string {
  const text = formatFee(Math.abs(amount), currency);
  return amount < 0 ? `− ${text}` : `+ ${text}`;
}

function describeValue(value: string): string {
  if (value === '') return '—';
  if (value === 'true') return 'Yes';
  if (value === 'false') return 'No';
  return humanize(value);
}

export function FeesScreen() {
  const fees = useMetadataQuery('mirror.fees');
  const currency = useCurrency();
  const standalone = useStandalone();
  const header = (
    <ScreenHeader
      title="Adoption fees"
      description="The fee rules your shelter uses: a base fee per species, adjusted by age, size and other traits."
    />
  );
  if (fees.error) {
    return (
      <>
        {header}
        <DeskErrorAlert error={fees.error} title="The fee rules did not load" />
      </>
    );
  }
  // Until the connection is known, which empty state applies is not.
  if (!fees.data || standalone === undefined) {
    return (
      <>
        {header}
        <Loader aria-label="Loading fees" />
      </>
    );
  }
  if (fees.data.fees.length === 0) {
    return (
      <>
        {header}
        {standalone ? (
          <EmptyState
            icon={IconReceipt2}
            title="No fee rules yet"
            action={{ label: 'Set up fee rules', href: '/shelter' }}
          >
            This desk runs your shelter (standalone mode): set a base fee per species, and adjustments for
            age, size and other traits, under Shelter. Pets without their own fee then show the fee these
            rules give them.
          </EmptyState>
        ) : (
          <EmptyState
            icon={IconReceipt2}
            title="No fee rules yet"
            action={{ label: 'Connect to your shelter', href: '/settings' }}
          >
            Fee rules are set up by your shelter and arrive with the first sync. Pets without their own fee
            then show the fee these rules give them.
          </EmptyState>
        )}
      </>
    );
  }

  const known = new Set<string>(SPECIES);
  const species = [
    ...SPECIES.filter((each) => fees.data?.fees.some((fee) => fee.species === each)),
    ...new Set(fees.data.fees.map((fee) => fee.species).filter((each) => !known.has(each))),
  ];
  return (
    <>
      {header}
      <Text size="sm" c="dimmed" mb="md">
        {standalone ? (
          <>
            Set by this shelter.{' '}
            <Anchor href="#/shelter" size="sm" onClick={() => openShelterSettings('fees')}>
              Change them under Shelter, Fees
            </Anchor>
            .
          </>
        ) : (
          <>Set by your shelter, as last synced {describeWhen(fees.data.fetchedAt)}.</>
        )}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {species.map((name) => {
          const rules = fees.data?.fees.filter((fee) => fee.species === name) ?? [];
          const base = rules.find((fee) => fee.attribute_type === 'base');
          const adjustments = rules.filter((fee) => fee !== base);
          return (
            <Card key={name} withBorder radius="lg" p="lg" aria-label={`${humanize(name)} fees`}>
              <Group justify="space-between" mb="sm">
                <Title order={3} size="h4">
                  {humanize(name)}s
                </Title>
                <Badge size="lg" variant="light">
                  Base {base ? formatFee(base.adjustment, currency) : '—'}
                </Badge>
              </Group>
              {adjustments.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Every {name} has the base fee.
                </Text>
              ) : (
                <Table verticalSpacing={6} aria-label={`${humanize(name)} fee rules`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>When</Table.Th>
                      <Table.Th>Is</Table.Th>
                      <Table.Th ta="right">Adjustment</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {adjustments.map((fee) => (
                      <Table.Tr key={`${fee.attribute_type}:${fee.attribute_value}`}>
                        <Table.Td>{humanize(fee.attribute_type)}</Table.Td>
                        <Table.Td>{describeValue(fee.attribute_value)}</Table.Td>
                        <Table.Td ta="right">
                          <Text size="sm" fw={600} c={fee.adjustment < 0 ? 'teal' : undefined}>
                            {signed(fee.adjustment, currency)}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}
