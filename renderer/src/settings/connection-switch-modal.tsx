import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ConnectionInput, ConnectionSummary } from '../../../shared/desk-api';
import { BusyButton } from '../components/busy-button';

/** What the desk is asked to switch to, and what stays behind with the current connection. */
export interface PendingSwitch {
  input: ConnectionInput;
  /** Changes made on this desk for the current connection and not sent yet. */
  waiting: number;
  /** The switch is a pairing: the code to pair with once confirmed (`input` names its shelter). */
  pairingCode?: string;
}

export function connectionName(summary: Pick<ConnectionSummary, 'mode' | 'remote'>): string {
  if (summary.mode === 'standalone') return 'Standalone (this desk’s own shelter)';
  if (summary.mode === 'remote') return summary.remote ?? 'the shelter server';
  return 'no connection';
}

function targetName(input: ConnectionInput): string {
  if (input.mode === 'remote') return input.remote;
  return input.mode === 'standalone' ? 'Standalone' : 'no connection';
}

/** The dialog's question: stopping the shelter this desk runs is said as that, not as a switch of connection. */
function question(current: ConnectionSummary | undefined, input: ConnectionInput): string {
  return current?.mode === 'standalone' && input.mode === 'none'
    ? 'Stop running the shelter on this desk?'
    : `Switch to ${targetName(input)}?`;
}

/** A trimmed address without the trailing slash or /api, to tell whether a save changes the server. */
export function sameRemote(a: string, b: string | null): boolean {
  const plain = (value: string) =>
    value
      .trim()
      .toLowerCase()
      .replace(/\/+$/, '')
      .replace(/\/api$/, '');
  return b !== null && plain(a) === plain(b);
}

/**
 * Asks before the desk changes connection: each connection keeps its own records and waiting changes on this desk,
 * so nothing is lost, but the screens show the other connection's records from now on. A desk with no connection
 * yet takes what was entered meanwhile to the connection it gets: the dialog says so.
 */
export function ConnectionSwitchModal(props: {
  pending: PendingSwitch | undefined;
  current: ConnectionSummary | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** After the dialog has finished closing (its focus given back). */
  onClosed?: () => void;
}) {
  const { pending, current } = props;
  const from = current ? connectionName(current) : 'this connection';
  const waiting = pending?.waiting ?? 0;
  const stopsShelter = current?.mode === 'standalone' && pending?.input.mode === 'none';
  return (
    <Modal
      opened={pending !== undefined}
      onClose={props.onCancel}
      onExitTransitionEnd={props.onClosed}
      title={pending ? question(current, pending.input) : ''}
      centered
    >
      <Stack gap="sm">
        <Text fw={600} data-testid="switch-waiting">
          {waiting === 0
            ? 'No changes waiting'
            : `${waiting.toLocaleString()} ${waiting === 1 ? 'change' : 'changes'} waiting`}
        </Text>
        {current?.mode === 'none' ? (
          <Text size="sm">
            {waiting === 1 ? 'It was' : 'They were'} entered on this desk while it had no connection.{' '}
            {waiting === 1 ? 'It goes' : 'They go'} with the desk to{' '}
            {pending ? targetName(pending.input) : ''}: {waiting === 1 ? 'it shows' : 'they show'} there at
            once and {waiting === 1 ? 'is' : 'are'} sent to the shelter, each once.
          </Text>
        ) : (
          <Text size="sm">
            {waiting === 0
              ? `Everything entered here for ${from} has been sent. `
              : `${waiting === 1 ? 'It stays' : 'They stay'} with ${from} on this desk and ${
                  waiting === 1 ? 'is' : 'are'
                } sent when the desk switches back to it. `}
            Its pets and people stay on this desk too and show again when you switch back.
            {stopsShelter &&
              ' Meanwhile other desks and scripts cannot reach the shelter’s records: this desk no longer serves them.'}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <BusyButton onClick={props.onConfirm} loading={props.busy} color={stopsShelter ? 'red' : undefined}>
            {stopsShelter ? 'Stop running the shelter' : 'Switch'}
          </BusyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
