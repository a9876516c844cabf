import { Badge, Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { CONTRACT_TYPES } from '../../../shared/contract';
import { ScreenHeader } from '../components/screen-header';

const CONTRACT_WORDS: Record<(typeof CONTRACT_TYPES)[number], { title: string; text: string }> = {
  adopter: { title: 'Adoption agreement', text: 'Signed by adopters when a pet goes home.' },
  foster: { title: 'Foster agreement', text: 'Signed by foster homes before they take an animal in.' },
  volunteer: { title: 'Volunteer agreement', text: 'Signed by new volunteers.' },
  surrender: { title: 'Surrender form', text: 'Signed by owners who give up a pet.' },
};

export function ContractsScreen() {
  return (
    <>
      <ScreenHeader
        title="Contracts"
        description="Your shelter’s agreement texts, ready to read out or print even when the internet is down."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {CONTRACT_TYPES.map((type) => (
          <Card key={type} withBorder radius="lg" p="lg">
            <Group justify="space-between" mb="xs" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" size="lg" radius="md">
                  <IconFileText size={20} />
                </ThemeIcon>
                <Text fw={600}>{CONTRACT_WORDS[type].title}</Text>
              </Group>
              <Badge variant="light" color="gray">
                Arrives with sync
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {CONTRACT_WORDS[type].text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
