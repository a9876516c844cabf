import { Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconListSearch, IconPlayerStop } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { DeskError, FullCheckEstimate, SyncRunResult } from '../../../shared/desk-api';
import { useDesk, useDeskQuery, useDeskStatus } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { toDeskError } from '../lib/desk-error';
import { percentSoFar, recordsSoFar } from '../lib/sync-progress';

const number = new Intl.NumberFormat();

/** "about 3 minutes", "under a minute": an estimate, said as one. */
function roughly(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `about ${Math.round(minutes / 60)} hours`;
}

function costLine(estimate: FullCheckEstimate): string {
  const requests = estimate.listRequests + estimate.recordRequests;
  const records =
    estimate.recordRequests > 0
      ? ` and ${number.format(estimate.recordRequests)} pets or people no longer on the lists, one by one`
      : '';
  return `About ${number.format(requests)} requests to the server (${number.format(estimate.listRequests)} list pages${records}), ${roughly(estimate.seconds)}.`;
}

/**
 * The full check, explained and under the person's control: every sync already finds records that left the lists
 * when the counts differ; this reads everything and asks about each record off the lists. Shows what it costs
 * before it starts, its progress while it runs, and a way to stop it.
 */
export function FullCheckCard({ connected }: { connected: boolean }) {
  const api = useDesk();
  const estimate = useDeskQuery('sync.fullCheck.estimate');
  const { status } = useDeskStatus();
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<{ run: SyncRunResult | null } | undefined>();
  const [error, setError] = useState<DeskError>();
  // Estimated from what the mirror holds: again after every sync that completes (a first sync among them), not
  // when the status first arrives.
  const syncedAt = status?.lastSyncedAt;
  const estimatedAfter = useRef(syncedAt);
  useEffect(() => {
    if (estimatedAfter.current === syncedAt) return;
    if (estimatedAfter.current !== undefined) estimate.reload();
    estimatedAfter.current = syncedAt;
  }, [syncedAt, estimate.reload]);
  const busy = running || estimate.data?.running === true;
  const progress = busy && status?.progress?.stage === 'checking' ? status.progress : null;
  const percent = progress ? percentSoFar(progress) : undefined;

  const start = () => {
    setRunning(true);
    setResult(undefined);
    setError(undefined);
    api
      .call('sync.fullCheck.start')
      .then((run) => setResult({ run }))
      .catch((caught: unknown) => setError(toDeskError(caught)))
      .finally(() => {
        setRunning(false);
        estimate.reload();
      });
  };
  const stop = () => {
    api.call('sync.fullCheck.stop').catch((caught: unknown) => setError(toDeskError(caught)));
  };

  return (
    <Card withBorder radius="lg" p="lg">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={48} radius="xl">
          <IconListSearch aria-hidden size={26} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1 }}>
          <Title order={3} size="h4">
            Full check
          </Title>
          <Text size="sm" c="dimmed">
            Every sync already notices pets that were hidden, taken off the website or deleted, by comparing
            counts with the server. The full check goes further: it reads every list from start to end and
            asks the server about each record that is no longer on them. Use it when something on this desk
            looks out of date.
          </Text>
          {estimate.data && !busy && <Text size="sm">{costLine(estimate.data)}</Text>}
          {busy && (
            <Stack gap={4} aria-live="polite">
              <Text size="sm">
                {progress
                  ? `Checking ${progress.phase.toLowerCase()}: ${recordsSoFar(progress, true)} records`
                  : 'Checking…'}
              </Text>
              {percent !== undefined ? (
                <Progress value={percent} animated aria-label="Full check progress" />
              ) : (
                <Progress value={100} animated striped aria-label="Full check progress" />
              )}
            </Stack>
          )}
          {result && !busy && (
            <Text size="sm" c={result.run?.complete ? 'sage' : 'dimmed'}>
              {result.run === null
                ? 'The full check was stopped or could not finish; what it read is kept.'
                : result.run.complete
                  ? `Done: ${number.format(result.run.requests)} requests in ${Math.max(1, Math.round(result.run.durationMs / 1000))} s.`
                  : (result.run.problems[0] ?? 'The full check did not finish.')}
            </Text>
          )}
          {error && <DeskErrorAlert error={error} title="The full check did not start" />}
          <Group gap="sm" mt={4}>
            {busy ? (
              <Button
                variant="light"
                color="red"
                leftSection={<IconPlayerStop aria-hidden size={18} />}
                onClick={stop}
              >
                Stop the full check
              </Button>
            ) : (
              <Button variant="light" onClick={start} disabled={!connected}>
                Run the full check
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
