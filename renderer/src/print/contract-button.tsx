import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import type { ContractType } from '../../../shared/contract';
import type { DeskError, Paper } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { PetPicker } from '../components/pet-picker';
import { toDeskError } from '../lib/desk-error';
import { describePdf, preferredPaper, rememberPaper, savePdf } from './save-pdf';

const NAMES: Record<ContractType, string> = {
  adopter: 'adoption agreement',
  foster: 'foster agreement',
  volunteer: 'volunteer agreement',
  surrender: 'surrender agreement',
};

/**
 * "Print agreement" for a person: their type's contract filled in with their name, contact, the pets (an adopter's
 * adopted pets unless others are chosen: the pets of their application) with fees, the date and signature lines.
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | undefined>();
  const [saved, setSaved] = useState<string | undefined>();

  async function print() {
    rememberPaper(paper);
    setBusy(true);
    setError(undefined);
    try {
      const pdf = await desk.call('print.contract', {
        personId,
        paper,
        ...(petIds.length > 0 && { petIds }),
      });
      savePdf(pdf);
      setSaved(`${pdf.filename} (${describePdf(pdf)})`);
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setBusy(false);
    }
  }

  const title = NAMES[type];
  return (
    <>
      <Button
        variant="light"
        size="sm"
        leftSection={<IconFileText size={16} />}
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
                  ? 'The pets of the application. Leave empty to name the pets adopted by this person.'
                  : 'The animals this agreement is about.'
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
            <Button onClick={() => void print()} loading={busy} leftSection={<IconFileText size={16} />}>
              Download PDF
            </Button>
          </Group>
          {saved && (
            <Text size="sm" c="dimmed" role="status">
              Downloaded {saved}
            </Text>
          )}
          {error && <DeskErrorAlert error={error} title="Nothing was printed" />}
        </Stack>
      </Modal>
    </>
  );
}
