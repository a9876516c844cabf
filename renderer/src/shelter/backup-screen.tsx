import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDatabaseExport, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import type { BackupEntry } from '../../../shared/desk-api';
import { petsAndPeople } from '../../../shared/wording/counts';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { ScreenHeader } from '../components/screen-header';
import { SidewaysScroll } from '../components/sideways-scroll';
import { typedFilePath } from '../lib/file-path';
import { StandaloneOnly, useAction } from './use-shelter';

const size = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Backups of the standalone shelter: one click now, the daily ones, and restore with confirmation. */
export function BackupScreen() {
  return (
    <>
      <ScreenHeader
        title="Backup"
        description="Copies of the shelter’s records. This desk makes one every day and keeps the last two weeks; make one now before big changes."
      />
      <StandaloneOnly what="backups">{() => <Backups />}</StandaloneOnly>
    </>
  );
}

function Backups() {
  const api = useDesk();
  const list = useDeskQuery('shelter.backups.list');
  const backup = useAction();
  const restore = useAction();
  const check = useAction();
  const [made, setMade] = useState<BackupEntry>();
  // The backup to restore: its file, and what the list says of it (when it was taken, which kind).
  const [restoring, setRestoring] = useState<{ file: string; taken?: string }>();
  const [path, setPath] = useState('');
  const [restored, setRestored] = useState<{ pets: number; people: number }>();

  async function backUp() {
    const entry = await backup.run(() => api.call('shelter.backups.create'));
    if (entry) {
      setMade(entry);
      list.reload();
    }
  }
  /** A typed path is looked at first: one that is no backup is said at once, not after a confirmation. */
  async function checkTyped() {
    const checked = await check.run(() => api.call('shelter.backups.check', { file: typedFilePath(path) }));
    if (checked) {
      restore.clear();
      setRestoring({
        file: checked.file,
        taken: `Last changed ${when(checked.modifiedAt)}, ${size(checked.bytes)}`,
      });
    }
  }
  async function confirmRestore() {
    if (!restoring) return;
    const done = await restore.run(() => api.call('shelter.backups.restore', { file: restoring.file }));
    if (done) {
      setRestored(done);
      setRestoring(undefined);
      list.reload();
    }
  }

  return (
    <Stack gap="lg">
      <Card withBorder radius="lg" p="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} maw={620}>
            <Title order={3} size="h4">
              Back up now
            </Title>
            <Text size="sm" c="dimmed">
              A complete copy of the shelter database, taken while everything keeps working. Copy the file to
              a USB stick or another computer now and then: a backup on the same PC does not survive a broken
              disk.
            </Text>
            {list.data && (
              <Text size="sm" c="dimmed">
                Backups are in <Code>{list.data.folder}</Code>
              </Text>
            )}
          </Stack>
          <BusyButton
            leftSection={<IconDatabaseExport aria-hidden size={18} />}
            onClick={() => void backUp()}
            loading={backup.busy}
          >
            Back up now
          </BusyButton>
        </Group>
        {made && (
          <Alert
            color="sage"
            variant="light"
            icon={<IconCircleCheck aria-hidden />}
            mt="md"
            title="Backup written"
            role="status"
          >
            {made.name} ({size(made.bytes)})
          </Alert>
        )}
        {backup.error && <DeskErrorAlert error={backup.error} title="No backup was written" />}
      </Card>

      <Card withBorder radius="lg" p="lg">
        <Title order={3} size="h4" mb={4}>
          Restore
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Puts the shelter back as it was in a backup. Everything entered after that backup is replaced on
          every desk. A copy of the current records is kept in the shelter’s folder
          (server.sqlite.before-restore), just in case.
        </Text>
        {restored && (
          <Alert
            color="sage"
            variant="light"
            icon={<IconCircleCheck aria-hidden />}
            mb="md"
            title="Restored"
            role="status"
          >
            The shelter now holds {petsAndPeople(restored.pets, restored.people)} from the backup and serves
            them again. This desk brings them in now (its sync status shows the progress); connected desks
            pick them up with their next sync.
          </Alert>
        )}
        {!list.data && !list.error && <Loader aria-label="Loading backups" />}
        {list.error && <DeskErrorAlert error={list.error} title="The backups did not load" />}
        {list.data && list.data.backups.length === 0 && (
          <Text size="sm" mb="md">
            No backups yet. The first daily backup is made a few minutes after the shelter starts.
          </Text>
        )}
        {list.data && list.data.backups.length > 0 && (
          <SidewaysScroll label="Backups" minWidth={460} mb="md">
            <Table aria-label="Backups" verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Taken</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.backups.map((entry) => (
                  // Each cell on one line: a narrow window scrolls the table sideways rather than cut the kind short.
                  <Table.Tr key={entry.file} style={{ whiteSpace: 'nowrap' }}>
                    <Table.Td>{when(entry.createdAt)}</Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={entry.kind === 'automatic' ? 'gray' : 'sage'}
                        miw="max-content"
                      >
                        {entry.kind === 'automatic' ? 'Daily' : 'Made by hand'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{size(entry.bytes)}</Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="subtle"
                        leftSection={<IconHistory aria-hidden size={16} />}
                        onClick={() =>
                          setRestoring({
                            file: entry.file,
                            taken: `${entry.kind === 'automatic' ? 'Daily backup' : 'Backup made by hand'} taken ${when(entry.createdAt)}`,
                          })
                        }
                      >
                        Restore…
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </SidewaysScroll>
        )}
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Restore from another file"
            description="The full path of a backup file on this PC (for example one copied back from a USB stick)."
            placeholder="/media/usb/shelter-manual-….sqlite"
            value={path}
            onChange={(event) => {
              check.clear();
              setPath(event.currentTarget.value);
            }}
            style={{ flex: 1 }}
          />
          <BusyButton
            variant="default"
            disabled={typedFilePath(path) === ''}
            loading={check.busy}
            onClick={() => void checkTyped()}
          >
            Restore…
          </BusyButton>
        </Group>
        {check.error && <DeskErrorAlert error={check.error} title="This file cannot be restored" />}
        {restore.error && !restoring && <DeskErrorAlert error={restore.error} title="Nothing was restored" />}
      </Card>

      <Modal
        opened={restoring !== undefined}
        onClose={() => setRestoring(undefined)}
        title="Restore this backup?"
        centered
      >
        <Stack gap="sm">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />}>
            The shelter stops taking changes for a moment, its records are replaced by the backup, and it
            starts again. Everything recorded after the backup was taken (intakes, sign-ups, changes to any
            record) is gone from every desk; a copy of today’s records stays in the shelter’s folder
            (server.sqlite.before-restore).
          </Alert>
          {restoring?.taken && (
            <Text size="sm" fw={600}>
              {restoring.taken}
            </Text>
          )}
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            <Code>{restoring?.file}</Code>
          </Text>
          {restore.error && <DeskErrorAlert error={restore.error} title="Nothing was restored" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRestoring(undefined)}>
              Cancel
            </Button>
            <BusyButton color="orange" onClick={() => void confirmRestore()} loading={restore.busy}>
              Restore
            </BusyButton>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
