import { Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import type { ImportRequest } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { offerDownload } from '../lib/offer-download';
import { useAction } from '../shelter/use-shelter';

/**
 * Saves the rejected rows as a CSV, each as the file has it with why in a last column, to put right in a
 * spreadsheet and import again: the table above shows only the first 500 problems, and a line number alone sends
 * the person hunting through the original file.
 */
export function SaveRejectedRows({ request }: { request: ImportRequest }) {
  const api = useDesk();
  const saving = useAction();
  const [saved, setSaved] = useState<string>();

  async function save() {
    setSaved(undefined);
    const file = await saving.run(() => api.call('import.rejectedRows', request));
    if (!file) return;
    offerDownload(file.fileName, new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
    setSaved(
      `Downloaded “${file.fileName}”: ${file.rows === 1 ? 'the rejected row, with why' : `${file.rows.toLocaleString()} rejected rows, each with why`} in its last column. Put them right there, then import that file.`,
    );
  }

  return (
    <Stack gap={4} mb="xs">
      <Group gap="sm" wrap="wrap">
        <BusyButton
          size="xs"
          variant="light"
          leftSection={<IconDownload aria-hidden size={16} />}
          loading={saving.busy}
          onClick={() => void save()}
        >
          Save the rejected rows (CSV)
        </BusyButton>
        {!saved && (
          <Text size="xs" c="dimmed">
            As the file has them, with why in a last column, to put right in your spreadsheet.
          </Text>
        )}
      </Group>
      {saved && (
        <Text size="sm" c="dimmed" role="status">
          {saved}
        </Text>
      )}
      {saving.error && <DeskErrorAlert error={saving.error} title="The rejected rows were not saved" />}
    </Stack>
  );
}
