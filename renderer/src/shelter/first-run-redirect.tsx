import { Loader } from '@mantine/core';
import { Redirect } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';

/** The root route: a new desk (empty data folder, no connection) opens the welcome screen, any other `home`. */
export function FirstRunRedirect({ home }: { home: string }) {
  const overview = useDeskQuery('shelter.overview');
  if (overview.loading && !overview.data && !overview.error) return <Loader aria-label="Loading" />;
  return <Redirect to={overview.data?.firstRun ? '/welcome' : home} replace />;
}
