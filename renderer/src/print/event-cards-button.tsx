import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import type { MirrorPetQuery, Paper } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { PetPicker } from '../pets/pet-picker';
import { preferredPaper } from './save-pdf';
import { DownloadOutcome, useDownloadPdf } from './use-download-pdf';

/** The most cards one batch prints (the core refuses more with the same message). */
const MAX_CARDS = 500;

/**
 * "Print cards" on the Pets list: kennel cards for an event in one PDF, one page each: every pet the list's current
 * search and filters show (in the list's order), or pets chosen one by one.
 */
export function EventCardsButton({
  query,
  count,
}: {
  query: Omit<MirrorPetQuery, 'limit' | 'offset'> & Partial<MirrorPetQuery>;
  count: number;
}) {
  const desk = useDesk();
  const [opened, { open, close }] = useDisclosure(false);
  const [source, setSource] = useState<'list' | 'chosen'>(
    count > 0 && count <= MAX_CARDS ? 'list' : 'chosen',
  );
  const [petIds, setPetIds] = useState<string[]>([]);
  const [paper, setPaper] = useState<Paper>(preferredPaper());
  const pdf = useDownloadPdf();
  const { limit: _limit, offset: _offset, ...filter } = query;
  const listFits = count > 0 && count <= MAX_CARDS;

  const print = () =>
    pdf.download(paper, (chosen) =>
      desk.call('print.cards', source === 'list' ? { filter, paper: chosen } : { petIds, paper: chosen }),
    );

  const cards = source === 'list' ? count : petIds.length;
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPrinter aria-hidden size={16} />}
        onClick={() => {
          // The paper last printed on, here or elsewhere on the desk (a kennel card on US Letter a moment ago).
          setPaper(preferredPaper());
          open();
        }}
      >
        Print cards
      </Button>
      <Modal opened={opened} onClose={close} title="Print kennel cards for an event" size="lg">
        <Stack gap="md">
          <SegmentedControl
            aria-label="Which pets"
            value={source}
            onChange={(value) => setSource(value === 'chosen' ? 'chosen' : 'list')}
            data={[
              {
                value: 'list',
                label: `Pets in the list (${count.toLocaleString()})`,
                disabled: !listFits,
              },
              { value: 'chosen', label: 'Choose pets' },
            ]}
          />
          {source === 'list' ? (
            <Text size="sm" c="dimmed">
              One card for each pet the Pets list shows now, with its search and filters, in the list’s order.
              {count > MAX_CARDS && ` Narrow the list to ${MAX_CARDS} pets or fewer.`}
            </Text>
          ) : (
            <PetPicker
              label="Pets"
              description="One card each, in this order."
              value={petIds}
              onChange={setPetIds}
              max={MAX_CARDS}
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
            <Button
              onClick={() => void print()}
              loading={pdf.busy}
              disabled={cards === 0 || (source === 'list' && !listFits)}
              leftSection={<IconPrinter aria-hidden size={16} />}
            >
              {cards === 1 ? 'Download 1 card' : `Download ${cards.toLocaleString()} cards`}
            </Button>
          </Group>
          <DownloadOutcome state={pdf} />
        </Stack>
      </Modal>
    </>
  );
}
