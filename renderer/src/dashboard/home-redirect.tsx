import { Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConnection } from '../lib/connection';

export const OVERVIEW_PATH = '/overview';

/**
 * Where the app opens: a standalone shelter (this desk hosts the shelter) opens on the Overview, the person running
 * the shelter's first question; a desk connected to a server opens on `fallback` (the Pets list). `redirect` renders
 * the redirect to that home (the first-run check wraps it, so a new desk still meets the welcome screen first).
 */
export function HomeRedirect({
  fallback,
  redirect,
}: {
  fallback: string;
  redirect(home: string): ReactNode;
}) {
  const connection = useConnection();
  if (!connection.data && !connection.error) return <Loader aria-label="Opening" />;
  return redirect(connection.data?.mode === 'standalone' ? OVERVIEW_PATH : fallback);
}
