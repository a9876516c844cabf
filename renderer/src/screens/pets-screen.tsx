import { Button } from '@mantine/core';
import { IconPaw, IconPlus } from '@tabler/icons-react';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';

export function PetsScreen() {
  return (
    <>
      <ScreenHeader
        title="Pets"
        description="Every animal your shelter has in care, kept on this desk so you can look them up even when the internet is down."
        actions={
          <Button component="a" href="#/intake" leftSection={<IconPlus size={18} />}>
            New intake
          </Button>
        }
      />
      <EmptyState
        icon={IconPaw}
        title="No pets on this desk yet"
        action={{ label: 'Connect to your shelter', href: '/sync' }}
      >
        Pets appear here after this desk has synced with your shelter’s server once. Connect it under Sync;
        after that, the list stays available offline and updates by itself.
      </EmptyState>
    </>
  );
}
