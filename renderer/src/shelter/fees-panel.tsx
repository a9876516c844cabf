import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { SPECIES, type Species } from '../../../shared/contract';
import type { FeeRuleSetting } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { humanize } from '../lib/words';
import { useAction } from './use-shelter';

const ATTRIBUTES = [
  'base',
  'age_category',
  'size',
  'sex',
  'spayed',
  'breed',
  'color',
  'special_needs',
  'status',
];

/** Adoption fee rules: a base fee per species plus adjustments for traits; saved together. */
export function FeesPanel({ rules, onChange }: { rules: FeeRuleSetting[]; onChange(): void }) {
  const api = useDesk();
  const action = useAction();
  const [rows, setRows] = useState<FeeRuleSetting[]>(rules);
  const [saved, setSaved] = useState(false);
  const update = (index: number, patch: Partial<FeeRuleSetting>) => {
    setSaved(false);
    setRows(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  };

  async function save() {
    const done = await action.run(() => api.call('shelter.fees.set', { rules: rows }));
    if (done !== undefined) {
      setSaved(true);
      onChange();
    }
  }

  return (
    <Card withBorder radius="lg" p="lg">
      <Text size="sm" c="dimmed" mb="md">
        A pet without its own fee costs the sum of its species’ base rule and of every rule that matches it
        (for example age category “senior”: −50). Pets follow the new rules on every desk after saving.
      </Text>
      <Table aria-label="Fee rules" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Species</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>Is</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity until saved; order is the identity.
            <Table.Tr key={index}>
              <Table.Td>
                <Select
                  aria-label="Species"
                  data={SPECIES.map((value) => ({ value, label: humanize(value) }))}
                  value={row.species}
                  onChange={(value) => update(index, { species: (value ?? 'dog') as Species })}
                  allowDeselect={false}
                  w={120}
                />
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label="Attribute"
                  data={ATTRIBUTES.map((value) => ({
                    value,
                    label: value === 'base' ? 'Always (base fee)' : humanize(value),
                  }))}
                  value={row.attributeType}
                  onChange={(value) =>
                    update(index, {
                      attributeType: value ?? 'base',
                      ...(value === 'base' && { attributeValue: '' }),
                    })
                  }
                  allowDeselect={false}
                  w={190}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  aria-label="Value"
                  value={row.attributeValue}
                  disabled={row.attributeType === 'base'}
                  placeholder={row.attributeType === 'base' ? '' : 'senior, large, true…'}
                  onChange={(event) => update(index, { attributeValue: event.currentTarget.value })}
                />
              </Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label="Amount"
                  value={row.adjustment}
                  onChange={(value) =>
                    update(index, { adjustment: typeof value === 'number' ? value : Number(value) || 0 })
                  }
                  decimalScale={2}
                  w={120}
                />
              </Table.Td>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label="Remove rule"
                  onClick={() => setRows(rows.filter((_, at) => at !== index))}
                >
                  <IconTrash aria-hidden size={18} />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap="sm" mt="md">
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus aria-hidden size={18} />}
            onClick={() =>
              setRows([...rows, { species: 'dog', attributeType: 'base', attributeValue: '', adjustment: 0 }])
            }
          >
            Add rule
          </Button>
          <Button onClick={() => void save()} loading={action.busy}>
            Save fee rules
          </Button>
          {saved && (
            <Text size="sm" c="dimmed" role="status">
              Saved.
            </Text>
          )}
        </Group>
        {action.error && <DeskErrorAlert error={action.error} title="Fee rules not saved" />}
      </Stack>
    </Card>
  );
}
