import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { BusyButton } from './busy-button';

/**
 * Asks before something that cannot be taken back (a change thrown away, a form left unsaved). The safe choice is
 * first and has the focus, so Enter or Escape keeps things as they are.
 */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy,
  returnFocus = true,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  /** False when confirming removes what opened it, and the caller puts the focus elsewhere. */
  returnFocus?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    // Above the drawer or dialog whose close it asks about.
    <Modal opened={opened} onClose={onCancel} title={title} centered zIndex={400} returnFocus={returnFocus}>
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-autofocus>
            {cancelLabel}
          </Button>
          <BusyButton color="red" onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </BusyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
