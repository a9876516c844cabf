import { Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useFocusBack } from '../lib/use-focus-back';
import { useAction } from './use-shelter';

/**
 * A dialog with one form of shelter settings: submitting runs `save` (busy button, the desk's error shown in the
 * dialog), and on success tells `onSaved` and closes.
 */
export function EditorModal({
  title,
  formLabel,
  size,
  submitLabel = 'Save',
  errorTitle = 'Not saved',
  save,
  onSaved,
  onClose,
  children,
}: {
  title: string;
  /** The form's accessible name. */
  formLabel: string;
  size?: ModalProps['size'];
  submitLabel?: string;
  errorTitle?: string;
  save(): Promise<unknown>;
  onSaved(): void;
  onClose(): void;
  children: ReactNode;
}) {
  const action = useAction();
  useFocusBack(true);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await action.run(save);
    if (done) {
      onSaved();
      onClose();
    }
  }
  return (
    <Modal opened onClose={onClose} title={title} size={size} centered>
      <form onSubmit={submit} aria-label={formLabel}>
        <Stack gap="sm">
          {children}
          {action.error && <DeskErrorAlert error={action.error} title={errorTitle} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <BusyButton type="submit" loading={action.busy}>
              {submitLabel}
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
