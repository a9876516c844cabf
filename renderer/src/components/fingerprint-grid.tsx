import { Box, SimpleGrid, Text } from '@mantine/core';
import { fingerprintGroups } from '../../../shared/desk-api';

/**
 * A certificate fingerprint as two people compare it aloud, one reading and one checking: 16 groups of 4
 * characters in four numbered rows, in a fixed-width font so no two characters look alike.
 */
export function FingerprintGrid({ fingerprint, label }: { fingerprint: string; label: string }) {
  const groups = fingerprintGroups(fingerprint);
  const rows = [0, 1, 2, 3].map((row) => groups.slice(row * 4, row * 4 + 4));
  return (
    <Box role="group" aria-label={`${label}: ${groups.join(' ')}`}>
      <Text size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Box
        p="xs"
        style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-default-hover)' }}
      >
        {rows.map((row, index) => (
          <SimpleGrid key={row.join('')} cols={5} spacing={4} verticalSpacing={0} aria-hidden>
            <Text size="xs" c="dimmed" ff="monospace" ta="right" pr={4} style={{ lineHeight: 1.9 }}>
              {index + 1}
            </Text>
            {row.map((group, position) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: a group's place in the row is its identity
                key={position}
                ff="monospace"
                fw={600}
                size="md"
                style={{ letterSpacing: '0.08em', lineHeight: 1.6 }}
              >
                {group}
              </Text>
            ))}
          </SimpleGrid>
        ))}
      </Box>
    </Box>
  );
}
