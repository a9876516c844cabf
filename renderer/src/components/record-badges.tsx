import { Badge, Group, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import { humanize } from '../lib/words';

/** "Not sent yet" while a local edit waits for the server; "Needs attention" when the server refused one. */
export function RecordBadges({
  pending,
  pendingFields,
  needsAttention,
  presence,
}: {
  pending: boolean;
  pendingFields: readonly string[];
  needsAttention: boolean;
  presence?: string;
}) {
  if (!needsAttention && !pending && presence !== 'removed') return null;
  return (
    <Group gap={4} wrap="nowrap">
      {needsAttention && (
        <Tooltip label="The server refused a change to this record. Open Sync to fix or discard it.">
          <Badge
            color="red"
            variant="light"
            size="sm"
            leftSection={<IconAlertTriangle aria-hidden size={12} />}
          >
            Needs attention
          </Badge>
        </Tooltip>
      )}
      {pending && !needsAttention && (
        <Tooltip
          label={
            pendingFields.length > 0
              ? `Not yet on the server: ${pendingFields.map(humanize).join(', ')}`
              : 'Saved on this desk; sent when the connection allows.'
          }
          multiline
          w={260}
        >
          <Badge
            color="yellow"
            variant="light"
            size="sm"
            leftSection={<IconClockHour4 aria-hidden size={12} />}
          >
            Not sent yet
          </Badge>
        </Tooltip>
      )}
      {presence === 'removed' && (
        <Badge color="gray" variant="outline" size="sm">
          Removed on server
        </Badge>
      )}
    </Group>
  );
}
