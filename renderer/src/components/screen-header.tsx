import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Title and one line of purpose at the top of every screen, with room for actions on the right. */
export function ScreenHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
}) {
  return (
    // Wraps: at 200 % zoom the actions go below the title rather than cut their own labels short (WCAG 1.4.10).
    <Group justify="space-between" align="flex-start" mb="lg">
      <Stack gap={4}>
        <Title order={2}>{title}</Title>
        <Text c="dimmed" size="sm" maw={640}>
          {description}
        </Text>
      </Stack>
      {actions}
    </Group>
  );
}
