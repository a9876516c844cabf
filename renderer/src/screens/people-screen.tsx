import { Tabs } from '@mantine/core';
import { IconHeartHandshake, IconHome } from '@tabler/icons-react';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';

export function PeopleScreen() {
  return (
    <>
      <ScreenHeader
        title="People"
        description="Adopters and fosters with their contact details and status, searchable on this desk at any time."
      />
      <Tabs defaultValue="adopters" variant="pills" radius="md">
        <Tabs.List mb="md">
          <Tabs.Tab value="adopters" leftSection={<IconHeartHandshake size={16} />}>
            Adopters
          </Tabs.Tab>
          <Tabs.Tab value="fosters" leftSection={<IconHome size={16} />}>
            Fosters
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="adopters">
          <EmptyState
            icon={IconHeartHandshake}
            title="No adopters here yet"
            action={{ label: 'Connect to your shelter', href: '/sync' }}
          >
            Adopters and their applications come from your shelter’s server. Once this desk is connected, you
            can find anyone by name, email or phone, even offline.
          </EmptyState>
        </Tabs.Panel>
        <Tabs.Panel value="fosters">
          <EmptyState
            icon={IconHome}
            title="No fosters here yet"
            action={{ label: 'Connect to your shelter', href: '/sync' }}
          >
            Foster homes and how many animals each can take appear after the first sync.
          </EmptyState>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
