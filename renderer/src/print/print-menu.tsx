import { type ButtonProps, Menu, Stack } from '@mantine/core';
import { IconCheck, IconPrinter } from '@tabler/icons-react';
import { useRef } from 'react';
import type { Paper, PrintedPdfResult } from '../../../shared/desk-api';
import { BusyButton } from '../components/busy-button';
import { lastUsedPaper } from './save-pdf';
import { DownloadOutcome, useDownloadPdf } from './use-download-pdf';

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
  const button = useRef<HTMLButtonElement>(null);
  const pdf = useDownloadPdf(button);
  const last = lastUsedPaper();

  return (
    <Stack gap={6} align="flex-start">
      {/* No focus placeholder: its role="presentation" is not allowed in a menu (axe aria-required-children). */}
      <Menu position="bottom-start" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <BusyButton
            ref={button}
            variant={variant}
            size={size}
            leftSection={<IconPrinter aria-hidden size={16} />}
            loading={pdf.busy}
            disabled={disabled}
          >
            {label}
          </BusyButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Paper size</Menu.Label>
          {PAPERS.map((paper) => (
            <Menu.Item
              key={paper.value}
              onClick={() => void pdf.download(paper.value, make)}
              rightSection={paper.value === last ? <IconCheck size={14} aria-label="last used" /> : null}
            >
              {paper.label} PDF
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <DownloadOutcome state={pdf} size="xs" />
    </Stack>
  );
}
