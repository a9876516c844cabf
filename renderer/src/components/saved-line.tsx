import { Group, type MantineSpacing, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The line under a form that says its save went through, in the theme's success colour (4.5:1 in both schemes), or
 * in yellow while the change is `waiting` on this desk for the connection.
 */
export function SavedLine({
  children,
  waiting = false,
  mt,
}: {
  children: ReactNode;
  waiting?: boolean;
  mt?: MantineSpacing;
}) {
  return (
    <Group
      gap={6}
      mt={mt}
      c={waiting ? 'yellow' : 'var(--mantine-color-sage-light-color)'}
      role="status"
      wrap="nowrap"
    >
      <IconCheck aria-hidden size={16} style={{ flexShrink: 0 }} />
      <Text size="sm">{children}</Text>
    </Group>
  );
}
