import { Alert, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { KNOWN_PET_STATUSES } from '../../../shared/contract';
import { useDeskQuery } from '../bridge/hooks';
import { formatMomentDate } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';
import { humanize } from '../lib/words';
import { offPublicList } from '../pets/off-public-list';

/**
 * What the volunteer should tell the applicant about the pets chosen for an application before they get their hopes
 * up: for an adoption, a pet not available for it (on hold, adopted, in a shelter's own status kept off the public
 * list such as a behaviour evaluation), and a pet that already has an application waiting for a decision. Only what this desk knows: a connected desk knows the applications it sent.
 */
export function ChosenPetNotices({ petIds, adopting }: { petIds: readonly string[]; adopting: boolean }) {
  if (petIds.length === 0) return null;
  return (
    <Stack gap={4} aria-live="polite">
      {petIds.map((petId) => (
        <Stack key={petId} gap={4}>
          {adopting && <NotAvailable petId={petId} />}
          <WaitingFor petId={petId} />
        </Stack>
      ))}
    </Stack>
  );
}

function NotAvailable({ petId }: { petId: string }) {
  const pet = useDeskQuery('mirror.pets.get', { id: petId });
  useReloadOnChange(['pets'], pet.reload);
  const record = pet.data?.record;
  if (!pet.data || !record) return null;
  // A status of the contract says it; a shelter's own status is one for adoption when it is public.
  const known = (KNOWN_PET_STATUSES as readonly string[]).includes(record.status);
  if (known ? record.status === 'available' : !offPublicList(pet.data)) return null;
  return (
    <Alert variant="light" color="orange" icon={<IconInfoCircle aria-hidden />} p="xs">
      <Text size="sm">
        {record.name} is not available for adoption: its status is {humanize(record.status)}. The application
        can still be sent; check with the staff before promising {record.name} to anyone.
      </Text>
    </Alert>
  );
}

function WaitingFor({ petId }: { petId: string }) {
  const applications = useDeskQuery('pets.applications', { id: petId });
  useReloadOnChange(['pets', 'people', 'adopters', 'fosters'], applications.reload);
  const waiting = (applications.data ?? []).filter((application) => application.status === 'submitted');
  if (waiting.length === 0) return null;
  const name = waiting[0]?.pets.find((pet) => pet.id === petId)?.name ?? 'This pet';
  const who = waiting
    .map(
      (application) =>
        `from ${application.personName ?? 'someone not on this desk'}, ${formatMomentDate(application.submittedAt)}`,
    )
    .join('; ');
  return (
    <Alert variant="light" color="yellow" icon={<IconInfoCircle aria-hidden />} p="xs">
      <Text size="sm">
        {name} already has {waiting.length === 1 ? 'an application' : `${waiting.length} applications`}{' '}
        waiting for a decision: {who}. Staff decide between the applications.
      </Text>
    </Alert>
  );
}
