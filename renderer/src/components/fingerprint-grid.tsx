import { Box, Text } from '@mantine/core';
import { fingerprintGroups } from '../../../shared/desk-api/connection-code';

/**
 * A certificate fingerprint as two people compare it aloud, one reading and one checking: 16 groups of 4
 * characters in four numbered rows, in a fixed-width font so no two characters look alike.
 */
export function FingerprintGrid({
  fingerprint,
  label,
  compact = false,
}: {
  fingerprint: string;
  label: string;
  /** Smaller type and gaps, for a narrow card. */
  compact?: boolean;
}) {
  const groups = fingerprintGroups(fingerprint);
  const rows = [0, 1, 2, 3].map((row) => groups.slice(row * 4, row * 4 + 4));
  return (
    <Box role="group" aria-label={`${label}: ${groups.join(' ')}`}>
      <Text size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Box
        aria-hidden
        px={compact ? 'xs' : 'md'}
        py="xs"
        style={{
          display: 'inline-grid',
          maxWidth: '100%',
          overflowX: 'auto',
          gridTemplateColumns: 'auto repeat(4, auto)',
          columnGap: compact ? 'var(--mantine-spacing-sm)' : 'var(--mantine-spacing-lg)',
          alignItems: 'baseline',
          borderRadius: 'var(--mantine-radius-md)',
          background: 'var(--mantine-color-default-hover)',
        }}
      >
        {rows.flatMap((row, index) => [
          <Text key={`row-${row.join('')}`} size="xs" c="dimmed" ff="monospace" ta="right">
            {index + 1}
          </Text>,
          ...row.map((group, position) => (
            <Text
              // biome-ignore lint/suspicious/noArrayIndexKey: a group's place in the grid is its identity
              key={index * 4 + position}
              ff="monospace"
              fw={600}
              size={compact ? 'md' : 'lg'}
              style={{ letterSpacing: compact ? '0.04em' : '0.1em', lineHeight: 1.7 }}
            >
              {group}
            </Text>
          )),
        ])}
      </Box>
    </Box>
  );
}
