import { Card, Group, List, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconClipboardHeart, IconWifiOff } from '@tabler/icons-react';
import { PET_CREATE_REQUIRED, SPECIES } from '../../../shared/contract';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';

/** Plain words for each field the API requires on a new pet (typed so a new required field fails to build). */
const REQUIRED_FIELD_WORDS: Record<(typeof PET_CREATE_REQUIRED)[number], string> = {
  name: 'A name (a temporary one is fine)',
  species: `Species: ${SPECIES.join(', ')}`,
  age_category: 'Rough age: youngest, young, adult or senior',
  sex: 'Sex (unknown is fine)',
  size: 'Size, from extra small to extra large',
  status: 'Status, e.g. intake, stray or surrendered',
  health: 'First impression of health',
};

export function IntakeScreen() {
  return (
    <>
      <ScreenHeader
        title="Intake"
        description="Record an animal the moment it arrives. Intakes saved here are kept on this desk and sent to the shelter’s server when the connection is back."
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <EmptyState
          icon={IconClipboardHeart}
          title="Ready for the first intake"
          action={{ label: 'Connect to your shelter', href: '/sync' }}
        >
          The intake form uses your shelter’s own statuses and custom fields, which this desk receives with
          its first sync. Connect it under Sync, then start an intake here.
        </EmptyState>
        <Card withBorder radius="lg" p="xl">
          <Title order={4} mb="xs">
            What you will need
          </Title>
          <Text c="dimmed" size="sm" mb="md">
            Have these at hand; everything else can be added later.
          </Text>
          <List
            spacing="xs"
            icon={
              <ThemeIcon size={22} radius="xl" variant="light">
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            {PET_CREATE_REQUIRED.map((field) => (
              <List.Item key={field}>{REQUIRED_FIELD_WORDS[field]}</List.Item>
            ))}
          </List>
          <Group gap="xs" mt="lg" c="dimmed">
            <IconWifiOff size={16} />
            <Text size="sm">Works without internet.</Text>
          </Group>
        </Card>
      </SimpleGrid>
    </>
  );
}
