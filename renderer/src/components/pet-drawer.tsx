import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconClockHour4, IconEdit } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import type { CustomField } from '../../../shared/contract';
import type { DeskError, MirrorPet } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { useCurrency } from '../bridge/settings';
import { formatCalendarDate, formatMomentDate } from '../lib/dates';
import { toDeskError } from '../lib/desk-error';
import { changedFields } from '../lib/form-messages';
import { useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import { buildPetUpdate, draftFromPet, type PetDraft } from '../lib/pet-form';
import { useOutboxWrite } from '../lib/use-outbox-write';
import { formatCoat, formatFee, formatValue, humanize, statusColor, statusOptions } from '../lib/words';
import { KennelCardButton } from '../print/kennel-card-button';
import { DeletePetSection } from '../shelter/delete-pet-section';
import { ApplicationsList } from './applications-list';
import { DeskErrorAlert } from './desk-error-alert';
import { DuplicateWarnings } from './duplicate-warnings';
import { FormErrorSummary } from './form-error-summary';
import { PetFields } from './pet-fields';
import { PetPhoto } from './pet-photo';
import { RecordBadges } from './record-badges';

/** A pet's full record in a side drawer: every field, a quick status change, and an Edit form. */
export function PetDrawer({
  id,
  initial,
  onClose,
}: {
  id: string | null;
  /** The record as a list already has it: shown at once, replaced by the core's answer. */
  initial?: MirrorPet | undefined;
  onClose(): void;
}) {
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={600}>Pet details</Text>}
      aria-label="Pet details"
    >
      {id !== null && <PetDetail id={id} initial={initial} />}
    </Drawer>
  );
}

function PetDetail({ id, initial }: { id: string; initial?: MirrorPet | undefined }) {
  const query = useDeskQuery('mirror.pets.get', { id });
  const pet = { ...query, data: query.data ?? (initial?.record.id === id ? initial : undefined) };
  const fields = useDeskQuery('mirror.customFields', { entity: 'pet' });
  const statuses = useDeskQuery('mirror.pets.statuses');
  const needsAttention = useNeedsAttention();
  const [editing, setEditing] = useState(false);
  useReloadOnChange(['pets'], pet.reload);

  if (pet.error) return <DeskErrorAlert error={pet.error} title="This pet could not be opened" />;
  if (!pet.data) return <Loader aria-label="Loading pet" />;
  const customFields = fields.data?.fields ?? [];

  return editing ? (
    <PetEditForm
      pet={pet.data}
      customFields={customFields}
      statuses={statuses.data ?? []}
      onDone={() => {
        setEditing(false);
        pet.reload();
      }}
    />
  ) : (
    <PetView
      pet={pet.data}
      customFields={customFields}
      statuses={statuses.data ?? []}
      needsAttention={needsAttention.has(pet.data.record.id)}
      onEdit={() => setEditing(true)}
    />
  );
}

function PetView({
  pet,
  customFields,
  statuses,
  needsAttention,
  onEdit,
}: {
  pet: MirrorPet;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  needsAttention: boolean;
  onEdit(): void;
}) {
  const { record } = pet;
  const currency = useCurrency();
  const pendingField = (key: string) =>
    pet.pendingFields.includes(key) ? (
      <Badge size="xs" color="yellow" variant="light" ml={6} leftSection={<IconClockHour4 size={10} />}>
        not sent yet
      </Badge>
    ) : null;
  const fee = record.adoption_fee.trim() !== '' ? record.adoption_fee : null;
  const rows: [string, string, string][] = [
    ['species', 'Species', humanize(record.species)],
    ['breed', 'Breed', formatValue(record.breed)],
    ['color', 'Colour', formatValue(record.color)],
    ['sex', 'Sex', humanize(record.sex)],
    ['age_category', 'Age', humanize(record.age_category)],
    [
      'age_years',
      'Age in years / months',
      [record.age_years, record.age_months].every((part) => !part)
        ? '—'
        : `${record.age_years ?? '0'} y ${record.age_months ?? '0'} m`,
    ],
    ['age_birthday', 'Birthday', formatCalendarDate(record.age_birthday)],
    ['size', 'Size', humanize(record.size)],
    ['weight', 'Weight', formatValue(record.weight)],
    ['coat_length', 'Coat', formatCoat(record.coat_length)],
    ['health', 'Health', humanize(record.health)],
    ['spayed', 'Spayed / neutered', formatValue(record.spayed)],
    ['microchip_id', 'Microchip', formatValue(record.microchip_id)],
    ['custom_id', 'Shelter id', formatValue(record.custom_id)],
    ['show_public', 'On the public list', formatValue(record.show_public)],
    ['good_with', 'Good with', record.good_with.map(humanize).join(', ') || '—'],
    ['bad_with', 'Not good with', record.bad_with.map(humanize).join(', ') || '—'],
    ['temperaments', 'Temperament', record.temperaments.map(humanize).join(', ') || '—'],
    ['special_needs', 'Special needs', formatValue(record.special_needs)],
    ['tags', 'Tags', formatValue(record.tags)],
    ['intake_date', 'Intake', formatCalendarDate(record.intake_date)],
    ['outcome_date', 'Outcome', formatCalendarDate(record.outcome_date)],
    ['adopted_on', 'Adopted on', formatCalendarDate(record.adopted_on)],
    ['adopted_by', 'Adopted by', formatValue(record.adopted_by)],
    ['primary_veterinarian', 'Veterinarian', formatValue(record.primary_veterinarian)],
    ['status_change_notes', 'Status notes', formatValue(record.status_change_notes)],
    ['updated_at', 'Last changed', formatMomentDate(record.updated_at)],
  ];
  const known = new Set(customFields.map((field) => field.field_key));
  const customData = record.custom_field_data;
  const unlabelled = Object.keys(customData).filter((key) => !known.has(key));

  return (
    <Stack gap="lg">
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <PetPhoto url={record.image_url} name={record.name} size={140} />
        <Stack gap={6} style={{ flex: 1 }}>
          <Title order={2}>{record.name}</Title>
          <Group gap={6}>
            <Badge color={statusColor(record.status)} variant="light" size="lg">
              {humanize(record.status)}
            </Badge>
            <RecordBadges
              pending={pet.pending}
              pendingFields={pet.pendingFields}
              needsAttention={needsAttention}
              presence={pet.presence}
            />
          </Group>
          <Text size="sm" c="dimmed">
            {humanize(record.sex)} {humanize(record.species).toLowerCase()}, {humanize(record.age_category)}
            {record.custom_id ? ` · ${record.custom_id}` : ''}
          </Text>
          <Group gap="lg" mt={4}>
            <Stack gap={0}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Adoption fee
              </Text>
              <Text fw={600} aria-label="Adoption fee">
                {formatFee(fee !== null ? fee : (record.global_adoption_fee ?? null), currency)}
              </Text>
              <Text size="xs" c="dimmed">
                {fee !== null
                  ? 'Set for this pet'
                  : record.global_adoption_fee != null
                    ? 'From the fee rules'
                    : 'No fee set'}
              </Text>
            </Stack>
            {fee !== null && record.global_adoption_fee != null && (
              <Stack gap={0}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Fee rules say
                </Text>
                <Text>{formatFee(record.global_adoption_fee, currency)}</Text>
              </Stack>
            )}
          </Group>
        </Stack>
        <Group gap="xs" align="flex-start">
          <KennelCardButton petId={record.id} />
          <Button variant="light" leftSection={<IconEdit size={16} />} onClick={onEdit}>
            Edit
          </Button>
        </Group>
      </Group>

      {pet.presence === 'local' && (
        <Alert color="yellow" variant="light" icon={<IconClockHour4 />}>
          Saved on this desk only. It is sent to the shelter’s server when the connection allows.
        </Alert>
      )}

      <QuickStatus pet={pet} statuses={statuses} />

      {record.description && (
        <Stack gap={4}>
          <Title order={4}>Description {pendingField('description')}</Title>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {record.description}
          </Text>
        </Stack>
      )}

      <Table variant="vertical" withTableBorder layout="fixed" aria-label="Pet fields">
        <Table.Tbody>
          {rows.map(([key, label, value]) => (
            <Table.Tr key={key}>
              <Table.Th w={200}>{label}</Table.Th>
              <Table.Td>
                {value}
                {pendingField(key)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      {(customFields.length > 0 || unlabelled.length > 0) && (
        <Stack gap="xs">
          <Title order={4}>Your shelter’s fields {pendingField('custom_field_data')}</Title>
          <Table variant="vertical" withTableBorder layout="fixed" aria-label="Custom fields">
            <Table.Tbody>
              {customFields
                .filter((field) => !field.hidden || customData[field.field_key] !== undefined)
                .map((field) => (
                  <Table.Tr key={field.field_key}>
                    <Table.Th w={200}>
                      {field.label}
                      {field.internal_only && (
                        <Badge size="xs" variant="outline" color="gray" ml={6}>
                          Staff only
                        </Badge>
                      )}
                    </Table.Th>
                    <Table.Td>{formatValue(customData[field.field_key])}</Table.Td>
                  </Table.Tr>
                ))}
              {unlabelled.map((key) => (
                <Table.Tr key={key}>
                  <Table.Th w={200}>{humanize(key)}</Table.Th>
                  <Table.Td>{formatValue(customData[key])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}

      {record.image_urls.length > 1 && (
        <Stack gap="xs">
          <Title order={4}>More photos</Title>
          <SimpleGrid cols={4} spacing="xs">
            {record.image_urls.slice(1).map((url) => (
              <PetPhoto key={url} url={url} name={record.name} size={110} />
            ))}
          </SimpleGrid>
        </Stack>
      )}
      {pet.presence !== 'local' && <ApplicationsList of="pet" id={record.id} />}
      <DeletePetSection pet={pet} />
    </Stack>
  );
}

/** The most common edit at an event: a new status with a short note. Sends only those two fields. */
function QuickStatus({ pet, statuses }: { pet: MirrorPet; statuses: readonly string[] }) {
  const api = useDesk();
  const [status, setStatus] = useState(pet.record.status);
  const [notes, setNotes] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<DeskError>();
  const [saved, setSaved] = useState(false);
  useEffect(() => setStatus(pet.record.status), [pet.record.status]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    setSaved(false);
    try {
      const fields: Record<string, unknown> = { status };
      if (notes.trim()) fields.status_change_notes = notes.trim();
      await api.call('outbox.updatePet', { id: pet.record.id, fields, force: true });
      setNotes('');
      setSaved(true);
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} aria-label="Change status">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Change status"
            data={statusOptions(statuses)}
            value={status}
            onChange={(value) => value && setStatus(value)}
            searchable
            allowDeselect={false}
            w={210}
          />
          <TextInput
            label="Notes"
            placeholder="e.g. Met adopters at the event"
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 180 }}
          />
          <Button type="submit" loading={saving} disabled={status === pet.record.status && !notes.trim()}>
            Save status
          </Button>
        </Group>
        {saved && (
          <Group gap={6} mt="xs" c="yellow.7" role="status">
            <IconCheck size={16} />
            <Text size="sm">Saved on this desk; sent when the connection allows.</Text>
          </Group>
        )}
        {error && (
          <Stack mt="sm">
            <DeskErrorAlert error={error} title="Status not saved" />
          </Stack>
        )}
      </form>
    </Paper>
  );
}

function PetEditForm({
  pet,
  customFields,
  statuses,
  onDone,
}: {
  pet: MirrorPet;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  onDone(): void;
}) {
  const api = useDesk();
  const [original] = useState<PetDraft>(() => draftFromPet(pet.record));
  const [draft, setDraft] = useState<PetDraft>(original);
  const { errors, error, warnings, saving, showInvalid, clearFields, submit, dismissWarnings } =
    useOutboxWrite();
  const [notice, setNotice] = useState<string>();

  async function save(force: boolean) {
    setNotice(undefined);
    const built = buildPetUpdate(original, draft);
    if (built.ok === 'unchanged') {
      setNotice('Nothing has changed yet.');
      return;
    }
    if (built.ok === false) return showInvalid(built.errors);
    const queued = await submit(() =>
      api.call('outbox.updatePet', { id: pet.record.id, fields: built.fields, force }),
    );
    if (queued) onDone();
  }

  return (
    <form
      aria-label="Edit pet"
      onSubmit={(event) => {
        event.preventDefault();
        void save(false);
      }}
    >
      <Stack gap="lg">
        <Title order={3}>Edit {pet.record.name}</Title>
        <Text size="sm" c="dimmed">
          Only the fields you change are sent to the server.
        </Text>
        <FormErrorSummary errors={errors} />
        <PetFields
          draft={draft}
          onChange={(next) => {
            clearFields(changedFields(draft, next));
            setDraft(next);
          }}
          errors={errors}
          customFields={customFields}
          statuses={statuses}
          compact
        />
        {warnings.length > 0 && (
          <DuplicateWarnings
            warnings={warnings}
            saving={saving}
            onOverride={() => void save(true)}
            onCancel={dismissWarnings}
          />
        )}
        <Stack gap="xs" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
          {Object.keys(errors).length > 0 && (
            <Text size="sm" c="red" role="status">
              Please check the marked fields above.
            </Text>
          )}
          {error && Object.keys(errors).length === 0 && <DeskErrorAlert error={error} title="Not saved" />}
          {notice && <Text size="sm">{notice}</Text>}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </Stack>
    </form>
  );
}
