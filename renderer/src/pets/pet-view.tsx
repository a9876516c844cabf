import { Alert, Anchor, Badge, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4, IconEdit, IconHeartHandshake } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { CustomField } from '../../../shared/contract';
import type { MirrorPet, OutboxEntry } from '../../../shared/desk-api';
import { feeFromRules } from '../../../shared/desk-api/fee-from-rules';
import { isOutOfCare } from '../../../shared/desk-api/out-of-care';
import { ageInWords, yearsAndMonthsInWords } from '../../../shared/wording/age';
import { useCurrency } from '../bridge/settings';
import { ApplicationsList } from '../components/applications-list';
import { unlessTypingHeld } from '../components/leave-guard';
import { RecordBadges } from '../components/record-badges';
import { SavedLine } from '../components/saved-line';
import { useStandalone } from '../lib/connection';
import { formatCustomValue } from '../lib/custom-field-rows';
import { ageOn, formatCalendarDate, formatMomentDate } from '../lib/dates';
import { useMetadataQuery } from '../lib/live-data';
import { requestOpen } from '../lib/open-record';
import { useFocusWhen } from '../lib/use-focus-when';
import { formatCoat, formatFee, formatValue, humanize, statusColor } from '../lib/words';
import { KennelCardButton } from '../print/kennel-card-button';
import { DeletePetSection } from '../shelter/delete-pet-section';
import { changeInWords, putRightInPetForm, refusalReason } from '../sync/outbox-words';
import { AdoptedBy } from './adopted-by';
import { offPublicList } from './off-public-list';
import { PetPhoto } from './pet-photo';
import { QuickStatus } from './pet-quick-status';
import { PetStatusChanges } from './pet-status-changes';

/**
 * False until the browser has painted once since the component mounted: a drawer shows its heading in the frame after
 * the click and lays out the rest (dozens of rows, a status picker, applications) in the next.
 */
function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A frame callback runs just before that paint; a task queued from it runs after.
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, []);
  return painted;
}

/** The age a birthday gives today, said to come from it, or a dash without one. */
function ageFromBirthday(birthday: string | null | undefined): string {
  const age = birthday ? ageOn(birthday) : undefined;
  return age ? `${yearsAndMonthsInWords(age.years, age.months)}, from the birthday` : '—';
}

/** "not sent yet" beside a field this desk changed and has not sent. */
function PendingBadge({ pet, field }: { pet: MirrorPet; field: string }) {
  if (!pet.pendingFields.includes(field)) return null;
  return (
    <Badge
      size="xs"
      color="yellow"
      variant="light"
      ml={6}
      leftSection={<IconClockHour4 aria-hidden size={10} />}
    >
      not sent yet
    </Badge>
  );
}

/** Signs someone up with an adoption application for this pet: People's sign-up, the pet already chosen. */
function StartAdoptionButton({ petId }: { petId: string }) {
  const [, navigate] = useLocation();
  return (
    <Button
      variant="light"
      leftSection={<IconHeartHandshake aria-hidden size={16} />}
      onClick={() =>
        unlessTypingHeld(() => {
          navigate('/people');
          requestOpen({ kind: 'sign-up', id: petId, personType: 'adopter' });
        })
      }
    >
      Start an adoption
    </Button>
  );
}

/**
 * A pet saved here whose intake the server refused. Refused for what it holds, the reason is named and Edit puts it
 * right (saving sends the intake again); otherwise Sync says what to do.
 */
function RefusedIntakeAlert({ refused }: { refused: readonly OutboxEntry[] }) {
  const create = refused.find(putRightInPetForm);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title="Not on the shelter’s server"
    >
      {create?.lastError ? (
        <>
          Saved on this desk only: the server refused this intake. {refusalReason(create.lastError)} Change it
          with Edit: saving sends it again. To drop it instead, discard it on{' '}
          <Anchor href="#/sync" inherit>
            Sync
          </Anchor>
          .
        </>
      ) : (
        <>
          Saved on this desk only: the server refused it, so it is not sent until it is put right. Sync says
          why and what to do.{' '}
          <Anchor href="#/sync" inherit>
            Open Sync
          </Anchor>
        </>
      )}
    </Alert>
  );
}

/**
 * The fee the shelter's rules give the pet: the server's figure, or, for a pet it has not seen yet or not as it is
 * now (changes not sent yet), the rules as last synced worked out here.
 */
function useRuleFee(pet: MirrorPet): number | null {
  const fees = useMetadataQuery('mirror.fees');
  const unseen = pet.presence === 'local' || pet.pending;
  if (unseen && fees.data) return feeFromRules(pet.record, fees.data.fees) ?? null;
  return pet.record.global_adoption_fee ?? null;
}

/**
 * A pet on the server with changes made here that the server refused: which, and why. Their values are not shown
 * (the pet shows the server's); Sync is where each is edited and sent again, or discarded.
 */
function RefusedChangesAlert({ refused }: { refused: readonly OutboxEntry[] }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="A change was refused">
      <Stack gap={4}>
        {refused.map((entry) => (
          <Text key={entry.id} size="sm">
            {changeInWords(entry)}: {entry.lastError ? refusalReason(entry.lastError) : 'refused.'}
          </Text>
        ))}
        <Text size="sm">
          The pet shows the shelter’s values meanwhile. Edit and send again, or discard, on{' '}
          <Anchor href="#/sync" inherit>
            Sync
          </Anchor>
          .
        </Text>
      </Stack>
    </Alert>
  );
}

/** A pet as staff read it: photo, status and fee, every field, custom fields, more photos, applications. */
export function PetView({
  pet,
  customFields,
  statuses,
  refused,
  focusEdit = false,
  justSaved = false,
  onEdit,
  onStatusTyped,
}: {
  pet: MirrorPet;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  /** This pet's changes made here that the server refused (they wait on Sync). */
  refused: readonly OutboxEntry[];
  /** Puts the focus on Edit: the view came back from the edit form, whose Save or Cancel had it. */
  focusEdit?: boolean;
  /** The view came back from an edit whose Save went through: a line says so and where the change is. */
  justSaved?: boolean;
  onEdit(): void;
  /** Whether the status form holds a change not saved yet (the drawer asks before it closes then). */
  onStatusTyped?: ((typed: boolean) => void) | undefined;
}) {
  const { record } = pet;
  const currency = useCurrency();
  const fee = record.adoption_fee.trim() !== '' ? record.adoption_fee : null;
  const ruleFee = useRuleFee(pet);
  const painted = usePaintedOnce();
  const editButton = useFocusWhen(focusEdit);
  const standalone = useStandalone();

  return (
    <Stack gap="lg">
      {/* In a narrow drawer the actions go under the rest rather than squeeze the name and status to a sliver. */}
      <Group align="flex-start" wrap="wrap" gap="lg">
        <PetPhoto url={record.image_url} name={record.name} size={140} />
        <Stack gap={6} miw={220} style={{ flex: '1 1 220px' }}>
          <Title order={2}>{record.name}</Title>
          <Group gap={6}>
            <Badge color={statusColor(record.status)} variant="light" size="lg">
              {humanize(record.status)}
            </Badge>
            {offPublicList(pet) && (
              <Badge color="gray" variant="outline">
                Not public
              </Badge>
            )}
            <RecordBadges
              pending={pet.pending}
              pendingFields={pet.pendingFields}
              needsAttention={refused.length > 0}
              presence={pet.presence}
            />
          </Group>
          <Text size="sm" c="dimmed">
            {humanize(record.sex)} {humanize(record.species).toLowerCase()}, {humanize(record.age_category)}
            {record.custom_id ? ` · ${record.custom_id}` : ''}
          </Text>
          {justSaved && (
            <SavedLine waiting={pet.pending}>
              {pet.pending
                ? standalone
                  ? 'Changes saved; adding them to your shelter’s records…'
                  : 'Changes saved on this desk; sent when the connection allows.'
                : standalone
                  ? 'Changes saved: they are in your shelter’s records.'
                  : 'Changes saved and sent: they are on the shelter’s server.'}
            </SavedLine>
          )}
          {/* The fee the rules give today means nothing for a pet adopted or gone: its agreement has the fee. */}
          {!isOutOfCare(record.status) && (
            <Group gap="lg" mt={4}>
              <Stack gap={0}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Adoption fee
                </Text>
                <Text fw={600} aria-label="Adoption fee">
                  {formatFee(fee !== null ? fee : ruleFee, currency)}
                </Text>
                <Text size="xs" c="dimmed">
                  {fee !== null ? 'Set for this pet' : ruleFee !== null ? 'From the fee rules' : 'No fee set'}
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
          )}
        </Stack>
        <Group gap="xs" align="flex-start">
          {/* A pet adopted or gone has no kennel to hang a card on, and no adoption to start. */}
          {!isOutOfCare(record.status) && (
            <>
              <StartAdoptionButton petId={record.id} />
              <KennelCardButton petId={record.id} />
            </>
          )}
          <Button
            ref={editButton}
            variant="light"
            leftSection={<IconEdit aria-hidden size={16} />}
            onClick={onEdit}
          >
            Edit
          </Button>
        </Group>
      </Group>

      {painted && (
        <PetDetails
          pet={pet}
          customFields={customFields}
          statuses={statuses}
          onStatusTyped={onStatusTyped}
          refused={refused}
        />
      )}
    </Stack>
  );
}

/** Everything below the pet's heading: status change, description, fields, custom fields, photos, applications. */
function PetDetails({
  pet,
  customFields,
  statuses,
  onStatusTyped,
  refused,
}: {
  pet: MirrorPet;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  onStatusTyped?: ((typed: boolean) => void) | undefined;
  refused: readonly OutboxEntry[];
}) {
  const { record } = pet;
  const rows: [string, string, ReactNode][] = [
    ['species', 'Species', humanize(record.species)],
    ['breed', 'Breed', formatValue(record.breed)],
    ['color', 'Colour', formatValue(record.color)],
    ['sex', 'Sex', humanize(record.sex)],
    ['age_category', 'Age', humanize(record.age_category)],
    [
      'age_years',
      'Age in years / months',
      ageInWords(record.age_years, record.age_months) ?? ageFromBirthday(record.age_birthday),
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
    [
      'adopted_by',
      'Adopted by',
      record.adopted_by ? <AdoptedBy key="adopted_by" personId={record.adopted_by} /> : '—',
    ],
    ['primary_veterinarian', 'Veterinarian', formatValue(record.primary_veterinarian)],
    ['status_change_notes', 'Status notes', formatValue(record.status_change_notes)],
    ['updated_at', 'Last changed', formatMomentDate(record.updated_at)],
  ];
  const known = new Set(customFields.map((field) => field.field_key));
  const customData = record.custom_field_data;
  const unlabelled = Object.keys(customData).filter((key) => !known.has(key));
  const pendingField = (key: string) => <PendingBadge pet={pet} field={key} />;
  return (
    <>
      {pet.presence === 'local' &&
        (refused.length > 0 ? (
          <RefusedIntakeAlert refused={refused} />
        ) : (
          <Alert color="yellow" variant="light" icon={<IconClockHour4 aria-hidden />}>
            Saved on this desk only. It is sent to the shelter’s server when the connection allows.
          </Alert>
        ))}
      {pet.presence !== 'local' && refused.length > 0 && <RefusedChangesAlert refused={refused} />}

      <QuickStatus key={pet.record.id} pet={pet} statuses={statuses} onTypedChange={onStatusTyped} />

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
                    <Table.Td>{formatCustomValue(customData[field.field_key], field.field_type)}</Table.Td>
                  </Table.Tr>
                ))}
              {unlabelled.map((key) => (
                <Table.Tr key={key}>
                  <Table.Th w={200}>{humanize(key)}</Table.Th>
                  <Table.Td>{formatCustomValue(customData[key])}</Table.Td>
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
      <PetStatusChanges id={record.id} />
      {pet.presence !== 'local' && <ApplicationsList of="pet" id={record.id} />}
      <DeletePetSection pet={pet} />
    </>
  );
}
