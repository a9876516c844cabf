import { Alert, Loader } from '@mantine/core';
import { IconBuildingWarehouse, IconServer2 } from '@tabler/icons-react';
import { type ReactNode, useCallback, useState } from 'react';
import type { DeskError, ShelterOverview } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { toDeskError } from '../lib/desk-error';

/** Runs one desk action at a time with its busy flag and error, for buttons and forms. */
export function useAction(): {
  busy: boolean;
  error: DeskError | undefined;
  run<T>(action: () => Promise<T>): Promise<T | undefined>;
  clear(): void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError>();
  const run = useCallback(async <T,>(action: () => Promise<T>) => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (caught) {
      setError(toDeskError(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/**
 * Shows `children(overview)` on a desk that runs the shelter itself; on a connected desk it says that these
 * things belong to the shelter's server, and on a desk not set up yet it points to the welcome screen.
 */
export function StandaloneOnly({
  what,
  children,
}: {
  what: string;
  children: (overview: ShelterOverview) => ReactNode;
}) {
  const overview = useDeskQuery('shelter.overview');
  if (overview.error) return <DeskErrorAlert error={overview.error} title="The shelter did not answer" />;
  if (!overview.data) return <Loader aria-label="Loading" />;
  if (overview.data.role === 'remote') {
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<IconServer2 aria-hidden />}
        title="These belong to your shelter’s server"
        role="note"
      >
        This desk is connected to a shelter server, and {what} are kept there. Change them on the server (or
        on the desk that runs the shelter); this desk receives the result with its next sync.
      </Alert>
    );
  }
  if (overview.data.role === 'none') {
    return (
      <EmptyState
        icon={IconBuildingWarehouse}
        title="This desk does not run a shelter"
        action={{ label: 'Set up this desk', href: '/welcome' }}
      >
        {`Run the shelter on this desk (or try the demo shelter) to manage ${what} here.`}
      </EmptyState>
    );
  }
  return <>{children(overview.data)}</>;
}
