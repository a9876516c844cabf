import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * Says what a form cannot ask yet on a desk that has not synced (the shelter's own fields come with the first sync),
 * that the record can be saved anyway, and where to connect (a link underlined: in running text, colour alone does
 * not tell it apart in the dark scheme).
 */
export function FirstSyncNotice({ children }: { children: ReactNode }) {
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
      {children}{' '}
      <Anchor href="#/settings" size="sm" underline="always">
        Connect under Settings
      </Anchor>
    </Alert>
  );
}
