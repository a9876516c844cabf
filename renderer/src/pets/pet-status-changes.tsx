import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { formatMomentTime } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';
import { humanize, statusColor } from '../lib/words';

/**
 * The pet's status changes this desk has seen, newest first, each with the note it had before and after: the next
 * change replaces a status and its note on the record, and the reason for a hold should not go with it. Shown once
 * there is one.
 */
export function PetStatusChanges({ id }: { id: string }) {
  const query = useDeskQuery('mirror.pets.statusChanges', { id });
  useReloadOnChange(['pets'], query.reload);
  if (query.error) return <DeskErrorAlert error={query.error} title="The status history did not load" />;
  const changes = query.data ?? [];
  if (changes.length === 0) return null;
  return (
    <Stack gap={6} role="region" aria-label="Status history">
      <Title order={4}>Status history</Title>
      <Text size="xs" c="dimmed">
        The changes this desk has seen, made here or brought by a sync.
      </Text>
      <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
        {changes.map((change) => (
          <Stack key={`${change.at}-${change.from}-${change.to}`} gap={2} component="li">
            <Group gap={6} wrap="wrap">
              <Text size="sm" c="dimmed">
                {formatMomentTime(change.at)}
              </Text>
              <Badge variant="light" color={statusColor(change.from)}>
                {humanize(change.from)}
              </Badge>
              <IconArrowRight aria-label="to" size={14} />
              <Badge variant="light" color={statusColor(change.to)}>
                {humanize(change.to)}
              </Badge>
              {change.madeHere && (
                <Text size="xs" c="dimmed">
                  on this desk
                </Text>
              )}
            </Group>
            {change.toNotes && <Text size="sm">Note: {change.toNotes}</Text>}
            {change.fromNotes && change.fromNotes !== change.toNotes && (
              <Text size="sm" c="dimmed">
                Note before: {change.fromNotes}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
