import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import type { MirrorPetQuery, Paper } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { PetPicker } from '../pets/pet-picker';
import { preferredPaper } from './save-pdf';
import { DownloadOutcome, useDownloadPdf } from './use-download-pdf';

/** The most cards one batch prints (the core refuses more with the same message). */
const MAX_CARDS = 500;

type Source = 'in-care' | 'list' | 'chosen';

/**
 * "Print cards" on the Pets list: kennel cards for an event in one PDF, one page each: every pet the list's current
 * search and filters show (in the list's order), those of them still in care (the first choice while the list is not
 * filtered by status: an event shows no adopted pets), or pets chosen one by one.
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
  const [source, setSource] = useState<Source>('chosen');
  const [petIds, setPetIds] = useState<string[]>([]);
  const [paper, setPaper] = useState<Paper>(preferredPaper());
  const pdf = useDownloadPdf();
  const { limit: _limit, offset: _offset, ...filter } = query;
  const careOffered = !filter.status && !filter.inCare;
  const inCareFilter = { ...filter, inCare: true };
  const [inCareCount, setInCareCount] = useState<number>();
  const fits = (cards: number | undefined) => cards !== undefined && cards > 0 && cards <= MAX_CARDS;
  const listFits = fits(count);

  async function openDialog() {
    // The paper last printed on, here or elsewhere on the desk (a kennel card on US Letter a moment ago).
    setPaper(preferredPaper());
    const inCare = careOffered
      ? await desk
          .call('mirror.pets.list', { ...inCareFilter, limit: 1 })
          .then((page) => page.total)
          .catch(() => undefined)
      : undefined;
    setInCareCount(inCare);
    setSource(fits(inCare) ? 'in-care' : listFits ? 'list' : 'chosen');
    open();
  }

  const print = () =>
    pdf.download(paper, (chosen) =>
      desk.call(
        'print.cards',
        source === 'chosen'
          ? { petIds, paper: chosen }
          : { filter: source === 'in-care' ? inCareFilter : filter, paper: chosen },
      ),
    );

  const cards = source === 'list' ? count : source === 'in-care' ? (inCareCount ?? 0) : petIds.length;
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPrinter aria-hidden size={16} />}
        onClick={() => void openDialog()}
      >
        Print cards
      </Button>
      <Modal opened={opened} onClose={close} title="Print kennel cards" size="lg">
        <Stack gap="md">
          <SegmentedControl
            aria-label="Which pets"
            value={source}
            onChange={(value) => setSource(value as Source)}
            data={[
              ...(careOffered && inCareCount !== undefined
                ? [
                    {
                      value: 'in-care',
                      label: `In care (${inCareCount.toLocaleString()})`,
                      disabled: !fits(inCareCount),
                    },
                  ]
                : []),
              {
                value: 'list',
                label: `Pets in the list (${count.toLocaleString()})`,
                disabled: !listFits,
              },
              { value: 'chosen', label: 'Choose pets' },
            ]}
          />
          {source === 'in-care' ? (
            <Text size="sm" c="dimmed">
              One card for each pet of the list still in your care, in the list’s order: no adopted,
              transferred or archived pets.
              {(inCareCount ?? 0) > MAX_CARDS && ` Narrow the list to ${MAX_CARDS} pets or fewer.`}
            </Text>
          ) : source === 'list' ? (
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
            <BusyButton
              onClick={() => void print()}
              loading={pdf.busy}
              disabled={cards === 0 || (source !== 'chosen' && !fits(cards))}
              leftSection={<IconPrinter aria-hidden size={16} />}
            >
              {cards === 1 ? 'Download 1 card' : `Download ${cards.toLocaleString()} cards`}
            </BusyButton>
          </Group>
          <DownloadOutcome state={pdf} />
        </Stack>
      </Modal>
    </>
  );
}
