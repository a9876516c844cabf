import { Alert, Code, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { DeskError } from '../../../shared/desk-api';

/**
 * A desk or server error as people need it: the message, each field, and the request id to quote. With `reveal`
 * (the answer to something the person just did), each new error is scrolled into sight: one that appears below the
 * fold, under the button that caused it, would go unseen.
 */
export function DeskErrorAlert({
  error,
  title = 'That did not work',
  reveal = false,
}: {
  error: DeskError;
  title?: string;
  reveal?: boolean;
}) {
  const alert = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new error is revealed, not only the first.
  useEffect(() => {
    if (reveal) alert.current?.scrollIntoView({ block: 'nearest' });
  }, [error, reveal]);
  return (
    <Alert
      ref={alert}
      color="red"
      variant="light"
      icon={<IconAlertCircle aria-hidden />}
      title={title}
      role="alert"
      style={{ scrollMarginBlock: 'var(--mantine-spacing-md)' }}
    >
      <Text size="sm">{error.message}</Text>
      {error.fieldErrors && error.fieldErrors.length > 1 && (
        <ul>
          {error.fieldErrors.map((field) => (
            <li key={`${field.field}:${field.message}`}>
              <Text size="sm">
                <b>{field.field}</b> {field.message}
              </Text>
            </li>
          ))}
        </ul>
      )}
      {error.requestId && (
        <Text size="xs" c="dimmed" mt={6}>
          Request id <Code>{error.requestId}</Code>
        </Text>
      )}
    </Alert>
  );
}
