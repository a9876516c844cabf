import { Alert, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useDeskQuery } from '../bridge/hooks';
import { formatMomentDate } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';
import { humanize } from '../lib/words';

/**
 * What the volunteer should tell the applicant about the pets chosen for an application before they get their hopes
 * up: a pet not available for adoption (on hold, in a behaviour evaluation, adopted), and a pet that already has an
 * application waiting for a decision. Only what this desk knows: a connected desk knows the applications it sent.
 */
export function ChosenPetNotices({ petIds }: { petIds: readonly string[] }) {
  if (petIds.length === 0) return null;
  return (
    <Stack gap={4} aria-live="polite">
      {petIds.map((petId) => (
        <Stack key={petId} gap={4}>
          <NotAvailable petId={petId} />
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
  if (!record || record.status === 'available') return null;
  return (
    <Alert variant="light" color="orange" icon={<IconInfoCircle />} p="xs">
      <Text size="sm">
        {record.name} is not available for adoption: {humanize(record.status).toLowerCase()}. The application
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
    <Alert variant="light" color="yellow" icon={<IconInfoCircle />} p="xs">
      <Text size="sm">
        {name} already has {waiting.length === 1 ? 'an application' : `${waiting.length} applications`}{' '}
        waiting for a decision: {who}. Staff decide between the applications.
      </Text>
    </Alert>
  );
}
