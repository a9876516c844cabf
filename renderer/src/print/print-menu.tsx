import { Button, type ButtonProps, Menu, Stack, Text } from '@mantine/core';
import { IconCheck, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import type { DeskError, Paper, PrintedPdfResult } from '../../../shared/desk-api';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { toDeskError } from '../lib/desk-error';
import { describePdf, preferredPaper, rememberPaper, savePdf } from './save-pdf';

const PAPERS: ReadonlyArray<{ value: Paper; label: string }> = [
  { value: 'a4', label: 'A4' },
  { value: 'letter', label: 'US Letter' },
];

/**
 * A print button with the paper size in its menu: asks the core for the PDF, offers it as a download and says what
 * was saved (or why not). `make` is the bridge call for one paper size.
 */
export function PrintMenu({
  label,
  make,
  disabled,
  variant = 'light',
  size = 'sm',
}: {
  label: string;
  make(paper: Paper): Promise<PrintedPdfResult>;
  disabled?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const last = preferredPaper();

  async function print(paper: Paper) {
    rememberPaper(paper);
    setBusy(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const pdf = await make(paper);
      savePdf(pdf);
      setSaved(`${pdf.filename} (${describePdf(pdf)})`);
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={6} align="flex-start">
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant={variant}
            size={size}
            leftSection={<IconPrinter size={16} />}
            loading={busy}
            disabled={disabled}
          >
            {label}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Paper size</Menu.Label>
          {PAPERS.map((paper) => (
            <Menu.Item
              key={paper.value}
              onClick={() => void print(paper.value)}
              rightSection={paper.value === last ? <IconCheck size={14} aria-label="last used" /> : null}
            >
              {paper.label} PDF
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {saved && (
        <Text size="xs" c="dimmed" role="status">
          Downloaded {saved}
        </Text>
      )}
      {error && <DeskErrorAlert error={error} title="Nothing was printed" />}
    </Stack>
  );
}
