import { Alert, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useDeskQuery } from '../bridge/hooks';
import { formatMomentDate } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';

/**
 * Says which of the chosen pets already have an application waiting for a decision, so the volunteer can tell the
 * applicant before they get their hopes up. Only what this desk knows: a connected desk knows the applications it
 * sent.
 */
export function OtherApplications({ petIds }: { petIds: readonly string[] }) {
  if (petIds.length === 0) return null;
  return (
    <Stack gap={4} aria-live="polite">
      {petIds.map((petId) => (
        <WaitingFor key={petId} petId={petId} />
      ))}
    </Stack>
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
