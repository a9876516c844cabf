import type { MirrorPetQuery } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { PrintMenu } from './print-menu';

/** The most cards one batch prints (the core refuses more with the same message). */
const MAX_CARDS = 500;

/**
 * "Print cards for an event" on the Pets list: one kennel card per pet the list's current filters show, in the
 * list's order, in one PDF.
 */
export function EventCardsButton({ query, count }: { query: MirrorPetQuery; count: number }) {
  const desk = useDesk();
  const { limit: _limit, offset: _offset, ...filter } = query;
  const label = count === 1 ? 'Print 1 card' : `Print ${count.toLocaleString()} cards`;
  return (
    <PrintMenu
      label={count > MAX_CARDS ? `Filter to ${MAX_CARDS} pets to print cards` : label}
      variant="subtle"
      size="xs"
      disabled={count === 0 || count > MAX_CARDS}
      make={(paper) => desk.call('print.cards', { filter, paper })}
    />
  );
}
