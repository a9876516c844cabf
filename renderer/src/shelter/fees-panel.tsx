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
import { useEffect, useRef, useState } from 'react';
import { SPECIES, type Species } from '../../../shared/contract';
import type { FeeRuleSetting } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useUnsavedGuard } from '../components/leave-guard';
import { SidewaysScroll } from '../components/sideways-scroll';
import { humanize, type Option } from '../lib/words';
import { repeatedBaseRules, ruleMatchesNoPet, valueChoices } from './fee-rule-values';
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

const FREE_TEXT_HINT: Record<string, string> = {
  breed: 'A breed as pets have it, e.g. Labrador Retriever',
  color: 'A colour as pets have it, e.g. Black',
  special_needs: 'A need as pets have it, e.g. Daily medication',
};

/** Adoption fee rules: a base fee per species plus adjustments for traits; saved together. */
export function FeesPanel({ rules, onChange }: { rules: FeeRuleSetting[]; onChange(): void }) {
  const api = useDesk();
  const action = useAction();
  const statuses = useDeskQuery('mirror.pets.statuses');
  const [rows, setRows] = useState<FeeRuleSetting[]>(rules);
  const [savedRows, setSavedRows] = useState<FeeRuleSetting[]>(rules);
  const [saved, setSaved] = useState(false);
  // Rows whose value is none a pet can have (typed before the choices, or by another tool), by index.
  const [unmatched, setUnmatched] = useState<ReadonlySet<number>>(new Set());
  // Rows whose amount is empty (a new rule, or one cleared), by index: saved, an empty amount would be 0.
  const [blank, setBlank] = useState<ReadonlySet<number>>(new Set());
  // Base rules repeating their species' base fee, by index: marked at Save.
  const [repeated, setRepeated] = useState<ReadonlySet<number>>(new Set());
  const [checked, setChecked] = useState(false);
  // Said once a rule is removed: the row goes at once, the rules on the desk only at Save.
  const [removed, setRemoved] = useState<string>();
  // Where the focus goes once the rows are drawn: a rule added (its species), or after one removed (the next rule's
  // Remove, or Add rule when none is left), so it is never left on the page or on a rule the person did not choose.
  const [focusNext, setFocusNext] = useState<{ row: number; field: 'species' | 'remove' } | 'add'>();
  const table = useRef<HTMLTableElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusNext) return;
    setFocusNext(undefined);
    if (focusNext === 'add') {
      addButton.current?.focus();
      return;
    }
    const row = table.current?.tBodies[0]?.rows[focusNext.row];
    row?.querySelector<HTMLElement>(`[data-rule-field="${focusNext.field}"]`)?.focus();
  }, [focusNext]);
  const leaveQuestion = useUnsavedGuard(
    'these fee rules',
    JSON.stringify(rows) !== JSON.stringify(savedRows),
  );
  const update = (index: number, patch: Partial<FeeRuleSetting>) => {
    setSaved(false);
    setRemoved(undefined);
    setUnmatched(new Set([...unmatched].filter((at) => at !== index)));
    setRepeated(new Set([...repeated].filter((at) => at !== index)));
    setRows(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  };
  async function save() {
    const wrong = new Set(
      rows.flatMap((row, index) => (ruleMatchesNoPet(row, statuses.data) ? [index] : [])),
    );
    setUnmatched(wrong);
    const twice = repeatedBaseRules(rows);
    setRepeated(twice);
    setChecked(true);
    if (wrong.size > 0 || twice.size > 0 || blank.size > 0) return;
    const done = await action.run(() => api.call('shelter.fees.set', { rules: rows }));
    if (done !== undefined) {
      setSavedRows(rows);
      setSaved(true);
      setRemoved(undefined);
      // A rule added after this save is marked at the next, not as it is added.
      setChecked(false);
      onChange();
    }
  }

  return (
    <Card withBorder radius="lg" p="lg">
      <Text size="sm" c="dimmed" mb="md">
        A pet without its own fee costs the sum of its species’ base rule and of every rule that matches it
        (for example Age “Senior”: −50). Pets follow the new rules on every desk after saving.
      </Text>
      <SidewaysScroll label="Fee rules" minWidth={700}>
        <Table ref={table} aria-label="Fee rules" verticalSpacing={6}>
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
                    data-rule-field="species"
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
                    error={
                      repeated.has(index)
                        ? `${humanize(row.species)} has a base fee already: change that one, or choose a trait`
                        : undefined
                    }
                    data={ATTRIBUTES.map((value) => ({
                      value,
                      label: value === 'base' ? 'Always (base fee)' : humanize(value),
                    }))}
                    value={row.attributeType}
                    // Another trait starts without a value: "senior" means nothing as a size.
                    onChange={(value) =>
                      update(index, { attributeType: value ?? 'base', attributeValue: '' })
                    }
                    allowDeselect={false}
                    w={190}
                  />
                </Table.Td>
                <Table.Td>
                  <RuleValue
                    row={row}
                    choices={valueChoices(row.attributeType, statuses.data)}
                    valuesKnown={row.attributeType !== 'status' || statuses.data !== undefined}
                    unmatched={unmatched.has(index)}
                    onChange={(attributeValue) => update(index, { attributeValue })}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label="Amount"
                    value={blank.has(index) ? '' : row.adjustment}
                    onChange={(value) => {
                      const empty = value === '' || value === '-';
                      setBlank(new Set([...blank].filter((at) => at !== index).concat(empty ? [index] : [])));
                      update(index, { adjustment: typeof value === 'number' ? value : Number(value) || 0 });
                    }}
                    error={checked && blank.has(index) ? 'Give an amount (0 for none)' : undefined}
                    decimalScale={2}
                    w={120}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    data-rule-field="remove"
                    aria-label={`Remove rule: ${ruleWords(row, statuses.data)}`}
                    onClick={() => {
                      setUnmatched(new Set());
                      setRepeated(new Set());
                      setBlank(
                        new Set([...blank].flatMap((at) => (at < index ? [at] : at > index ? [at - 1] : []))),
                      );
                      setRows(rows.filter((_, at) => at !== index));
                      setSaved(false);
                      setRemoved(
                        `Removed ${ruleWords(row, statuses.data)}: saved with the rest at Save fee rules.`,
                      );
                      const left = rows.length - 1;
                      setFocusNext(left === 0 ? 'add' : { row: Math.min(index, left - 1), field: 'remove' });
                    }}
                  >
                    <IconTrash aria-hidden size={18} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </SidewaysScroll>
      <Stack gap="sm" mt="md">
        <Group>
          <Button
            ref={addButton}
            variant="light"
            leftSection={<IconPlus aria-hidden size={18} />}
            onClick={() => {
              setBlank(new Set([...blank, rows.length]));
              setRows([...rows, newRule(rows)]);
              setSaved(false);
              setRemoved(undefined);
              setFocusNext({ row: rows.length, field: 'species' });
            }}
          >
            Add rule
          </Button>
          <BusyButton onClick={() => void save()} loading={action.busy}>
            Save fee rules
          </BusyButton>
          <Text size="sm" c="dimmed" role="status">
            {saved ? 'Saved.' : removed}
          </Text>
        </Group>
        {checked && (unmatched.size > 0 || repeated.size > 0 || blank.size > 0) && (
          <Text size="sm" c="red" role="alert">
            Fee rules not saved:{' '}
            {[
              unmatched.size > 0 &&
                `${unmatched.size === 1 ? 'a rule matches' : `${unmatched.size} rules match`} no pet (choose what each marked rule is for)`,
              repeated.size > 0 &&
                `${repeated.size === 1 ? 'a species has' : 'species have'} a second base fee, which would be added to the first`,
              blank.size > 0 && `${blank.size === 1 ? 'a rule has' : `${blank.size} rules have`} no amount`,
            ]
              .filter(Boolean)
              .join('; ')}
            .
          </Text>
        )}
        {action.error && <DeskErrorAlert error={action.error} title="Fee rules not saved" />}
      </Stack>
      {leaveQuestion}
    </Card>
  );
}

/** A rule as a person reads it: "Dog base fee", "Cat, Age: Senior". */
function ruleWords(row: FeeRuleSetting, statuses: Parameters<typeof valueChoices>[1]): string {
  const species = humanize(row.species);
  if (row.attributeType === 'base') return `${species} base fee`;
  const value =
    valueChoices(row.attributeType, statuses)?.find((choice) => choice.value === row.attributeValue)?.label ??
    row.attributeValue;
  return `${species}, ${humanize(row.attributeType)}: ${value || 'no value yet'}`;
}

/** A rule added to `rows`: the base fee of the first species without one, else a trait of dogs to choose. */
function newRule(rows: readonly FeeRuleSetting[]): FeeRuleSetting {
  const withBase = new Set(rows.filter((row) => row.attributeType === 'base').map((row) => row.species));
  const species = SPECIES.find((each) => !withBase.has(each));
  return species
    ? { species, attributeType: 'base', attributeValue: '', adjustment: 0 }
    : { species: 'dog', attributeType: 'age_category', attributeValue: '', adjustment: 0 };
}

/**
 * What a rule's trait must be: one of its values (shown as the desk shows them everywhere), or for a list field an
 * item as pets have it. A stored value no pet can have is shown as it is, marked.
 */
function RuleValue({
  row,
  choices,
  valuesKnown,
  unmatched,
  onChange,
}: {
  row: FeeRuleSetting;
  choices: Option[] | undefined;
  /** False while the values pets have are still loading (a shelter's own statuses): nothing is marked stray yet. */
  valuesKnown: boolean;
  unmatched: boolean;
  onChange(value: string): void;
}) {
  if (row.attributeType === 'base') return <TextInput aria-label="Value" value="" disabled />;
  if (!choices) {
    return (
      <TextInput
        aria-label="Value"
        value={row.attributeValue}
        placeholder={FREE_TEXT_HINT[row.attributeType] ?? 'As pets have it'}
        error={unmatched ? 'Type what pets have here' : undefined}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  const known = choices.some((choice) => choice.value === row.attributeValue);
  const stray = row.attributeValue !== '' && !known;
  return (
    <Select
      aria-label="Value"
      placeholder="Choose…"
      data={
        stray
          ? [
              {
                value: row.attributeValue,
                label: valuesKnown
                  ? `“${row.attributeValue}” (no pet has this)`
                  : humanize(row.attributeValue),
              },
              ...choices,
            ]
          : choices
      }
      value={row.attributeValue === '' ? null : row.attributeValue}
      onChange={(value) => onChange(value ?? '')}
      allowDeselect={false}
      error={unmatched ? (stray ? 'No pet has this: choose one' : 'Choose one') : undefined}
    />
  );
}
