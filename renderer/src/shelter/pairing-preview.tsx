import { Alert, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { type ConnectionCode, type DeskApi, formatTypedCode } from '../../../shared/desk-api';
import { FingerprintGrid } from '../components/fingerprint-grid';

type PairingCode = Extract<ConnectionCode, { kind: 'pairing' | 'typed' }>;

/**
 * What a pairing code shows before the desk connects: for a pasted one, the shelter's certificate fingerprint to
 * compare aloud with the shelter desk's screen (a typed one is checked by the code itself); and the name this
 * desk's key will be listed under there.
 */
export function PairingPreview({
  code,
  deskName,
  onDeskName,
  disabled,
}: {
  code: PairingCode;
  deskName: string;
  onDeskName: (name: string) => void;
  disabled: boolean;
}) {
  return (
    <Stack gap="sm">
      {code.kind === 'pairing' ? (
        <>
          <Alert
            variant="light"
            color="blue"
            icon={<IconShieldLock aria-hidden />}
            title="Compare before you connect"
          >
            Pairing code for {code.remote}. Read this fingerprint aloud with someone at the shelter desk (it
            is on its sharing card). Connect only if every group matches: this desk will accept no other
            certificate.
          </Alert>
          <FingerprintGrid
            fingerprint={code.fingerprint}
            label="The shelter’s certificate fingerprint"
            compact
          />
        </>
      ) : (
        <Alert variant="light" color="blue" icon={<IconShieldLock aria-hidden />} title="Typed code">
          Code {formatTypedCode(code.code)} for {code.remote}. The desk and the shelter desk each check that
          the other knows this code before anything is kept, so a stranger on the network cannot stand in
          between.
        </Alert>
      )}
      <TextInput
        label="This desk’s name"
        description="The shelter lists this desk’s key under it, so it can be revoked alone."
        placeholder="e.g. Adoption table"
        value={deskName}
        onChange={(event) => onDeskName(event.currentTarget.value)}
        maxLength={60}
        disabled={disabled}
      />
      <Text size="xs" c="dimmed">
        The code works once, for 15 minutes. If it has expired or was used, ask for a new one.
      </Text>
    </Stack>
  );
}

/**
 * Pairs with a shelter by code (the name given, else the one in Settings, else the host name), then syncs once:
 * a desk that cannot sync right after is not left looking connected.
 * @throws DeskCallError with the refusal in words (another certificate, a used or expired code, unreachable).
 */
export async function pairAndSync(api: DeskApi, code: string, deskName: string): Promise<void> {
  const name = deskName.trim();
  await api.call('sync.connection.pair', { code, ...(name && { deskName: name }) });
  await api.call('sync.now');
  const status = await api.call('status.get');
  if (status.state === 'needs-auth' || status.state === 'offline' || status.state === 'error') {
    await api.call('sync.connection.set', { mode: 'none' });
    throw new Error(
      `Paired, but the first sync failed (${status.error?.message ?? status.message ?? 'no reply'}). Ask the shelter desk for a new code and try again.`,
    );
  }
}
