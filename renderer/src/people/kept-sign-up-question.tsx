import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * Asked when a new sign-up is started while the desk still keeps one that was never saved: the desk keeps one
 * sign-up's typing, so a new one would replace it. Closing the question starts nothing and keeps it.
 */
export function KeptSignUpQuestion({
  keptName,
  opened,
  onContinue,
  onStartNew,
  onClose,
}: {
  /** The kept sign-up's name as typed ('' when none was typed yet). */
  keptName: string;
  opened: boolean;
  onContinue(): void;
  onStartNew(): void;
  onClose(): void;
}) {
  const whose = keptName.trim() ? `the sign-up of ${keptName.trim()}` : 'a sign-up';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="A sign-up is still waiting"
      centered
      size="lg"
      zIndex={400}
    >
      <Stack gap="md">
        <Text size="sm">
          This desk keeps {whose} that was not saved when the desk was reloaded or closed. A new sign-up would
          replace it. Continue it first, or discard it and start a new one.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" color="red" onClick={onStartNew}>
            Discard it, start a new one
          </Button>
          <Button onClick={onContinue} data-autofocus>
            Continue {keptName.trim() ? `${keptName.trim()}’s sign-up` : 'it'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
