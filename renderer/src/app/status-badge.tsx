import { Badge, Group, Loader, Tooltip, UnstyledButton } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { DESK_AWAY_MESSAGE, useDeskAway } from '../bridge/desk-away';
import { useDeskStatus } from '../bridge/hooks';
import { usePageOutdated } from '../bridge/page-outdated';
import { describeWhen, lookOf, statusLine, statusParts } from '../components/status-presentation';
import { useStandalone } from '../lib/connection';

/**
 * The header's connection and sync status; updated live by `status` events. A standalone desk keeps the records
 * itself: its badge says whether the changes made on it are recorded, not when it last synced.
 */
export function StatusBadge() {
  const { status, error } = useDeskStatus();
  const mode = useStandalone();
  const standalone = mode === true;
  const outdated = usePageOutdated();
  const away = useDeskAway();
  if (away && !outdated) {
    return (
      <Tooltip
        label={DESK_AWAY_MESSAGE}
        multiline
        w={260}
        withArrow
        events={{ hover: true, focus: true, touch: false }}
      >
        <Badge
          color="red"
          variant="light"
          size="lg"
          role="status"
          tabIndex={0}
          aria-label={`Connection status: desk not running. ${DESK_AWAY_MESSAGE}`}
          leftSection={<IconPlugConnectedX aria-hidden size={14} stroke={2} />}
        >
          Desk not running
        </Badge>
      </Tooltip>
    );
  }
  if (error || outdated) {
    return (
      <Badge
        color="red"
        variant="light"
        size="lg"
        role="status"
        aria-label={`Connection status: ${outdated ? 'reload the page' : 'desk unreachable'}`}
      >
        {outdated ? 'Reload the page' : 'Desk unreachable'}
      </Badge>
    );
  }
  // Until the desk says whether it keeps the records itself, either words could be wrong.
  if (!status || mode === undefined) return <Loader size="xs" aria-label="Loading status" />;
  const look = lookOf(status, standalone);
  const Icon = look.icon;
  const busy = status.state === 'syncing' || status.state === 'connecting';
  const line = statusLine(status, standalone);
  const { label, progress } = statusParts(status, standalone);
  // The header's status opens the Sync screen, where what waits and what went wrong are told in full.
  return (
    <UnstyledButton component="a" href="#/sync" title="Open Sync" className="status-link">
      <Group gap="xs" wrap="nowrap">
        {status.toCheck > 0 && (
          <Badge
            color="orange"
            variant="light"
            size="lg"
            aria-label={`${status.toCheck} ${status.toCheck === 1 ? 'record' : 'records'} also changed on the server meanwhile: check on Sync which value stays`}
          >
            {status.toCheck} to check
          </Badge>
        )}
        {status.needsAttention > 0 && !standalone && (
          <Badge
            color="red"
            variant="light"
            size="lg"
            aria-label={`The server refused ${status.needsAttention === 1 ? 'a change' : `${status.needsAttention} changes`} made on this desk: Sync says why and what to do`}
          >
            {status.needsAttention} refused
          </Badge>
        )}
        {status.pending > 0 && (
          <Badge
            color="yellow"
            variant="light"
            size="lg"
            aria-label={`${status.pending} changes waiting to be ${standalone ? 'recorded' : 'sent'}`}
          >
            {status.pending} waiting
          </Badge>
        )}
        <Tooltip
          label={
            status.state === 'idle' && !standalone
              ? `Last synced ${describeWhen(status.lastSyncedAt)}`
              : look.advice
          }
          multiline
          w={260}
          withArrow
        >
          <Badge
            color={look.color}
            variant="light"
            size="lg"
            role="status"
            aria-label={`Connection status: ${line}`}
            leftSection={
              busy ? <Loader size={12} color={look.color} /> : <Icon aria-hidden size={14} stroke={2} />
            }
          >
            {label}
            {/* A phone-sized window has room for what the desk does, not for how far it has got. */}
            {progress && <span className="narrow-hidden"> · {progress}</span>}
          </Badge>
        </Tooltip>
      </Group>
    </UnstyledButton>
  );
}
