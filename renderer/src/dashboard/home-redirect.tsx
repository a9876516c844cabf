import { Loader } from '@mantine/core';
import { Redirect } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';

export const OVERVIEW_PATH = '/overview';

/**
 * Where the app opens: a standalone shelter (this desk hosts the shelter) opens on the Overview, the person running
 * the shelter's first question; a desk connected to a server, or not set up yet, opens on the Pets list.
 */
export function HomeRedirect({ fallback }: { fallback: string }) {
  const connection = useDeskQuery('sync.connection.get');
  if (!connection.data && !connection.error) return <Loader aria-label="Opening" />;
  return <Redirect to={connection.data?.mode === 'standalone' ? OVERVIEW_PATH : fallback} replace />;
}
