import { Alert, Code, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { DeskError } from '../../../shared/desk-api';

/** A desk or server error as people need it: the message, each field, and the request id to quote. */
export function DeskErrorAlert({ error, title = 'That did not work' }: { error: DeskError; title?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle />} title={title} role="alert">
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
