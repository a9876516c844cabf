import { Alert, Anchor, Button, Group, List, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import type { DuplicateWarning } from '../../../shared/desk-api';

/** The desk found records that look like this one; the worker may still save ("Save anyway"). */
export function DuplicateWarnings({
  warnings,
  onOverride,
  onCancel,
  onOpen,
  saving,
}: {
  warnings: readonly DuplicateWarning[];
  onOverride(): void;
  onCancel(): void;
  /** Shows the existing record (its id in the mirror). */
  onOpen?(existingId: string): void;
  saving?: boolean;
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconCopy aria-hidden />}
      title="This may already be on the desk"
      role="alert"
    >
      <List size="sm" spacing={4} mb="sm">
        {warnings.map((warning) => (
          <List.Item key={`${warning.kind}:${warning.existingId}`}>
            {warning.message}{' '}
            {onOpen && (
              <Anchor component="button" type="button" size="sm" onClick={() => onOpen(warning.existingId)}>
                Open {warning.existingName}
              </Anchor>
            )}
          </List.Item>
        ))}
      </List>
      <Text size="sm" mb="sm">
        Check the existing record first. If this really is someone or something new, save it anyway.
      </Text>
      <Group gap="sm">
        <Button color="yellow" onClick={onOverride} loading={saving}>
          Save anyway
        </Button>
        <Button variant="default" onClick={onCancel}>
          Go back
        </Button>
      </Group>
    </Alert>
  );
}
