import { Button, Group, Modal, SegmentedControl, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import type { ContractType } from '../../../shared/contract';
import type { Paper } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { PetPicker } from '../pets/pet-picker';
import { preferredPaper } from './save-pdf';
import { DownloadOutcome, useDownloadPdf } from './use-download-pdf';

const NAMES: Record<ContractType, string> = {
  adopter: 'adoption agreement',
  foster: 'foster agreement',
  volunteer: 'volunteer agreement',
  surrender: 'surrender agreement',
};

/**
 * "Print agreement" for a person: their type's contract filled in with their name, contact, the pets chosen (else an
 * adopter's adopted pets, else those of their waiting application, as a draft) with fees, the date and signature lines.
 */
export function ContractButton({
  personId,
  name,
  type,
}: {
  personId: string;
  name: string;
  type: ContractType;
}) {
  const desk = useDesk();
  const [opened, { open, close }] = useDisclosure(false);
  const [petIds, setPetIds] = useState<string[]>([]);
  const [paper, setPaper] = useState<Paper>(preferredPaper());
  const pdf = useDownloadPdf();
  const print = () =>
    pdf.download(paper, (chosen) =>
      desk.call('print.contract', { personId, paper: chosen, ...(petIds.length > 0 && { petIds }) }),
    );

  const title = NAMES[type];
  return (
    <>
      <Button
        variant="light"
        size="sm"
        leftSection={<IconFileText aria-hidden size={16} />}
        onClick={open}
        style={{ alignSelf: 'flex-start' }}
      >
        Print {title}
      </Button>
      <Modal opened={opened} onClose={close} title={`Print the ${title} for ${name}`} size="lg">
        <Stack gap="md">
          {type !== 'volunteer' && (
            <PetPicker
              label={type === 'surrender' ? 'Animals surrendered' : 'Animals'}
              description={
                type === 'adopter'
                  ? 'Leave empty to name the pets adopted by this person or, if none, those of their application.'
                  : 'The animals this agreement is about. Leave empty to name those of their application.'
              }
              value={petIds}
              onChange={setPetIds}
              max={20}
            />
          )}
          <Group justify="space-between" align="flex-end">
            <SegmentedControl
              aria-label="Paper size"
              value={paper}
              onChange={(value) => setPaper(value === 'letter' ? 'letter' : 'a4')}
              data={[
                { value: 'a4', label: 'A4' },
                { value: 'letter', label: 'US Letter' },
              ]}
            />
            <BusyButton
              onClick={() => void print()}
              loading={pdf.busy}
              leftSection={<IconFileText aria-hidden size={16} />}
            >
              Download PDF
            </BusyButton>
          </Group>
          <DownloadOutcome state={pdf} />
        </Stack>
      </Modal>
    </>
  );
}
