import { Alert, Anchor, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileDescription } from '@tabler/icons-react';
import { useLocation } from 'wouter';
import type { PersonApplication } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { useStandalone } from '../lib/connection';
import { formatMomentDate } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';
import { requestOpen } from '../lib/open-record';
import { humanize } from '../lib/words';
import { DeskErrorAlert } from './desk-error-alert';
import { unlessTypingHeld } from './leave-guard';

const STATUS_COLORS: Record<string, string> = { submitted: 'indigo', approved: 'teal', denied: 'red' };
/** An application's status as the Applications screen names it: one that waits for a decision is "Waiting". */
export const APPLICATION_STATUS_WORDS = {
  submitted: 'Waiting',
  approved: 'Approved',
  denied: 'Denied',
} as const;
const statusWord = (status: string): string =>
  APPLICATION_STATUS_WORDS[status as keyof typeof APPLICATION_STATUS_WORDS] ?? humanize(status);
const KIND_WORDS: Record<string, string> = { adopter: 'Adoption application', foster: 'Foster application' };

/**
 * The applications of a person (`of: 'person'`) or naming a pet (`of: 'pet'`), oldest first, each with its pets,
 * when it was sent and what was decided (when this desk can know it). Names lead to the other record's page.
 */
export function ApplicationsList({ of, id }: { of: 'person' | 'pet'; id: string }) {
  const query = useDeskQuery(of === 'person' ? 'people.applications' : 'pets.applications', { id });
  useReloadOnChange(['pets', 'people', 'adopters', 'fosters'], query.reload);
  const [, navigate] = useLocation();
  // A standalone desk is the shelter: it holds every application. A connected one is shown only those it sent.
  const standalone = useStandalone();
  const openPet = (petId: string) =>
    unlessTypingHeld(() => {
      navigate('/pets');
      requestOpen({ kind: 'pet', id: petId });
    });
  const openPerson = (application: PersonApplication) =>
    unlessTypingHeld(() => {
      navigate('/people');
      const type = application.kind === 'foster' ? 'foster' : 'adopter';
      requestOpen({ kind: 'person', id: application.personId, personType: type });
    });

  return (
    <Stack gap={6} aria-label="Applications" role="region">
      <Title order={4}>Applications</Title>
      {query.error && <DeskErrorAlert error={query.error} title="The applications did not load" />}
      {!query.data && query.loading && <Loader size="sm" aria-label="Loading applications" />}
      {query.data?.length === 0 && standalone !== undefined && (
        <Text size="sm" c="dimmed">
          {of === 'person' ? 'No applications from this person' : 'No applications for this pet'}
          {standalone
            ? '.'
            : ' that this desk knows of. Applications made on other desks or on your website stay on the shelter’s server, which shows each desk only the ones it sent.'}
        </Text>
      )}
      {query.data?.map((application) => (
        <Paper
          key={application.id}
          withBorder
          radius="md"
          p="sm"
          aria-label={`Application ${application.id}`}
        >
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap={6}>
                <IconFileDescription aria-hidden size={16} stroke={1.6} />
                <Text fw={600} size="sm">
                  {KIND_WORDS[application.kind] ?? `${humanize(application.kind)} application`}
                </Text>
              </Group>
              <Badge
                variant="light"
                color={application.decisionsKnown ? (STATUS_COLORS[application.status] ?? 'gray') : 'gray'}
              >
                {application.decisionsKnown ? statusWord(application.status) : 'Sent'}
              </Badge>
            </Group>
            {of === 'pet' && (
              <Text size="sm">
                From{' '}
                <Anchor component="button" type="button" size="sm" onClick={() => openPerson(application)}>
                  {application.personName ?? 'a person not on this desk'}
                </Anchor>
              </Text>
            )}
            <Text size="sm">
              {application.pets.length === 1 ? 'Pet: ' : 'Pets: '}
              {application.pets.map((pet, index) => (
                <span key={pet.id}>
                  {index > 0 && ', '}
                  {pet.name === null ? (
                    <Text span c="dimmed" size="sm">
                      a pet no longer on this desk
                    </Text>
                  ) : (
                    <Anchor component="button" type="button" size="sm" onClick={() => openPet(pet.id)}>
                      {pet.name}
                    </Anchor>
                  )}
                  {application.placedPetIds.includes(pet.id) && (
                    <Badge size="xs" ml={4} variant="outline" color="teal">
                      {application.kind === 'foster' ? 'fostered' : 'adopted'}
                    </Badge>
                  )}
                </span>
              ))}
            </Text>
            <Text size="xs" c="dimmed">
              Sent {formatMomentDate(application.submittedAt)}
              {application.decidedAt && ` · decided ${formatMomentDate(application.decidedAt)}`}
              {!application.decisionsKnown && ' · the server’s API does not report decisions'}
            </Text>
            {application.note && (
              <Alert variant="light" color="gray" p="xs">
                <Text size="sm">Note: {application.note}</Text>
              </Alert>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
