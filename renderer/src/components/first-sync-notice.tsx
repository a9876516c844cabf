import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNotSetUp } from '../lib/connection';

/**
 * Says what a form cannot ask yet on a desk that has not synced (the shelter's own fields come with the first sync),
 * that the record can be saved anyway, and where to connect (a link underlined: in running text, colour alone does
 * not tell it apart in the dark scheme). A desk not set up yet is pointed to the welcome screen, where it can also
 * run the shelter itself.
 */
export function FirstSyncNotice({ children }: { children: ReactNode }) {
  const notSetUp = useNotSetUp();
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
      {children}{' '}
      {notSetUp ? (
        <Anchor href="#/welcome" size="sm" underline="always">
          Set up this desk: connect it, or run your shelter on this computer
        </Anchor>
      ) : (
        <Anchor href="#/settings" size="sm" underline="always">
          Connect under Settings
        </Anchor>
      )}
    </Alert>
  );
}
