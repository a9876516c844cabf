import { Alert, Group, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import type { DeskError } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { FingerprintGrid } from '../components/fingerprint-grid';
import { useConnection } from '../lib/connection';
import { toDeskError } from '../lib/desk-error';

/**
 * Said once, above every screen, after the desk moved an older connection (a plain http:// address and the
 * shelter's shared key) to the shelter's encrypted connection by itself: what changed, the fingerprint to read
 * aloud with the shelter desk, and what to do if they differ. Gone for good once the person says they have read it.
 */
export function TlsMovedNotice() {
  const api = useDesk();
  // The move happens during a sync, which names the new (https) address: the connection is asked again then.
  const connection = useConnection();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError>();

  const summary = connection.data;
  if (!summary?.movedToTls || !summary.fingerprint) return null;

  async function acknowledge() {
    setBusy(true);
    setError(undefined);
    try {
      await api.call('sync.connection.acknowledgeTls');
      void connection.refresh();
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconLock aria-hidden />}
      title="The connection to the shelter is now encrypted"
      mb="lg"
      data-testid="tls-moved-notice"
    >
      <Stack gap="sm">
        <Text size="sm">
          The shelter desk now shares its records over an encrypted connection, and this desk has moved to it
          by itself: from now on, others on this network cannot read what it sends. It uses the same key as
          before, until the shelter revokes it. It kept the shelter’s certificate it found now and will refuse
          any other.
        </Text>
        <FingerprintGrid fingerprint={summary.fingerprint} label="The shelter’s certificate fingerprint" />
        <Text size="sm">
          Read it aloud with someone at the shelter desk (Keys and sharing shows the same). If it differs,
          disconnect this desk in Settings and ask the shelter desk for a new pairing code.
        </Text>
        <Group>
          <BusyButton loading={busy} onClick={() => void acknowledge()}>
            Got it
          </BusyButton>
        </Group>
        {error && <DeskErrorAlert error={error} title="Not saved" />}
      </Stack>
    </Alert>
  );
}
