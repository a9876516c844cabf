import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon: TablerIcon;
  title: string;
  children: ReactNode;
  /** A next step, e.g. a link to Sync. */
  action?: { label: string; href: string };
}

/** What a screen shows before it has data: what will be here and what to do next. */
export function EmptyState({ icon: Icon, title, children, action }: EmptyStateProps) {
  return (
    <Paper withBorder radius="lg" p="xl" py={48}>
      <Stack align="center" gap="sm" maw={520} mx="auto" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light">
          <Icon aria-hidden size={34} stroke={1.5} />
        </ThemeIcon>
        <Title order={3} mt="xs">
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
        {action && (
          <Button component="a" href={`#${action.href}`} mt="sm" variant="light">
            {action.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
