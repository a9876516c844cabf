import { Badge, Loader, Table } from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MirrorPet } from '../../../shared/desk-api';
import { RecordBadges } from '../components/record-badges';
import { SidewaysScroll } from '../components/sideways-scroll';
import { formatCalendarDate } from '../lib/dates';
import { useRovingRows } from '../lib/roving-rows';
import { humanize, statusColor } from '../lib/words';
import { matchedInDescription } from './matched-description';
import { matchedMicrochip } from './matched-microchip';
import { offPublicList } from './off-public-list';
import { PetPhoto } from './pet-photo';
import classes from './pet-rows.module.css';
import type { ListPages } from './use-list-pages';

const ROW_HEIGHT = 64;
/** The window's header covers the top of the page: a row moved to by the keyboard stops below it. */
const HEADER_CLEARANCE = 72;

/**
 * Every matching pet in one scrolling list: only the rows in view (and a few around them) are in the page, and
 * their records are fetched page by page as they come into view, so 100k pets scroll like 50.
 */
export const PetRows = memo(function PetRows({
  pages,
  search,
  needsAttention,
  onOpen,
}: {
  pages: ListPages<MirrorPet>;
  /** The words the rows answer: a pet found by its microchip shows the chip. */
  search: string;
  needsAttention: ReadonlySet<string>;
  /** Opens a pet; the row's record goes along so its drawer shows at once. */
  onOpen(pet: MirrorPet): void;
}) {
  const listRef = useRef<HTMLTableSectionElement>(null);
  // Where the rows start in the page: the window scrolls, and the filters sit above the list.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
    if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
  });
  const virtualizer = useWindowVirtualizer({
    count: pages.total ?? 0,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin,
    scrollPaddingStart: HEADER_CLEARANCE,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { request } = pages;
  useEffect(() => {
    if ((pages.total ?? 0) > 0) request(first, last);
  }, [first, last, pages.total, request]);
  const { active, onRowFocus, onRowKeyDown } = useRovingRows(pages.total ?? 0, listRef, (index) =>
    virtualizer.scrollToIndex(index),
  );
  // The list's Tab stop is the row last used while it is drawn; scrolled far from it, the first row in view, so Tab
  // still reaches the list.
  const tabStop = active >= first && active <= last ? active : (virtualizer.range?.startIndex ?? first);

  return (
    // 576 px is 36rem: the fewest columns (rem, as Mantine writes it, follows the text size).
    <SidewaysScroll label="Pets" minWidth={576} hintInset="md">
      <Table aria-label="Pets" aria-rowcount={(pages.total ?? 0) + 1} className={classes.table}>
        <Table.Thead className={classes.headGroup}>
          <Table.Tr className={`${classes.row} ${classes.head}`}>
            <Table.Th aria-label="Photo" />
            <Table.Th>Name</Table.Th>
            <Table.Th>Species</Table.Th>
            <Table.Th className={classes.wide}>Breed</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th className={classes.wide}>Intake</Table.Th>
            <Table.Th aria-label="Sync state" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={listRef} style={{ height: virtualizer.getTotalSize() }} className={classes.body}>
          {items.map((row) => {
            const pet = pages.itemAt(row.index);
            if (!pet) {
              const style = { transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` };
              return (
                <tr key={row.key} aria-rowindex={row.index + 2} className={classes.row} style={style}>
                  <td className={classes.placeholder}>
                    <Loader size="xs" type="dots" aria-label="Loading" />
                  </td>
                </tr>
              );
            }
            return (
              // Keyed by position: the rows of a new search reuse the rows on show (their DOM updated in place)
              // rather than replacing them.
              <PetRow
                key={row.key}
                pet={pet}
                index={row.index}
                top={row.start - virtualizer.options.scrollMargin}
                needsAttention={needsAttention.has(pet.record.id)}
                matchedChip={matchedMicrochip(pet.record.microchip_id, search)}
                describedBy={matchedInDescription(pet.record, search)}
                tabbable={row.index === tabStop}
                onOpen={onOpen}
                onRowFocus={onRowFocus}
                onRowKeyDown={onRowKeyDown}
              />
            );
          })}
        </Table.Tbody>
      </Table>
    </SidewaysScroll>
  );
});

/**
 * One pet's row. Memoized: while a new search is asked, the rows on show keep their records and props, so a
 * keystroke re-renders the list without re-rendering its rows.
 */
const PetRow = memo(function PetRow({
  pet,
  index,
  top,
  needsAttention,
  matchedChip,
  describedBy,
  tabbable,
  onOpen,
  onRowFocus,
  onRowKeyDown,
}: {
  pet: MirrorPet;
  index: number;
  top: number;
  needsAttention: boolean;
  /** The microchip the search found this pet by, shown under its name. */
  matchedChip: string | undefined;
  /** The word of its description the search found this pet by, said under its name (see `matchedInDescription`). */
  describedBy: string | undefined;
  /** The list's one Tab stop (useRovingRows). */
  tabbable: boolean;
  onOpen(pet: MirrorPet): void;
  onRowFocus(index: number): void;
  onRowKeyDown(index: number, event: KeyboardEvent, open: () => void): void;
}) {
  const { record, pending, pendingFields, presence } = pet;
  // Plain cells and lines styled by this module: a screenful of rows is drawn on every new tab and every search, and
  // Mantine's Table.Td and Text cost a style lookup each (about 14 components a row, over half of a first screen's
  // rows).
  return (
    <tr
      aria-rowindex={index + 2}
      aria-label={record.name}
      data-row-index={index}
      tabIndex={tabbable ? 0 : -1}
      className={`${classes.row} ${classes.pet}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onOpen(pet)}
      onFocus={() => onRowFocus(index)}
      onKeyDown={(event) => onRowKeyDown(index, event, () => onOpen(pet))}
    >
      <td>
        {/* Keyed by its address: a row showing another pet never shows the previous pet's photo meanwhile. */}
        <PetPhoto key={record.image_url ?? ''} url={record.image_url} name={record.name} size={40} />
      </td>
      <td className={classes.clip}>
        <p className={`${classes.line} ${classes.name}`}>{record.name}</p>
        <p className={`${classes.line} ${classes.detail}`}>
          {/* What the search found takes the shelter id's place: both on the line, it was cut off in a narrow column. */}
          {matchedChip
            ? `Chip ${matchedChip}`
            : describedBy
              ? `In its description: “${describedBy}”`
              : (record.custom_id ?? (presence === 'local' ? 'New on this desk' : ''))}
        </p>
      </td>
      <td className={classes.clip}>
        <p className={classes.text}>{humanize(record.species)}</p>
        <p className={classes.detail}>
          {humanize(record.sex)} · {humanize(record.age_category)}
        </p>
      </td>
      <td className={`${classes.wide} ${classes.clip}`}>
        <p className={`${classes.line} ${classes.text}`}>{record.breed.join(', ') || '—'}</p>
      </td>
      <td>
        {/* One above the other: side by side, a long status ("Behavior evaluation") and "Not public" were both cut. */}
        <div className={classes.statuses}>
          <Badge color={statusColor(record.status)} variant="light" maw="100%" className="badge-wraps">
            {humanize(record.status)}
          </Badge>
          {offPublicList(pet) && (
            <Badge color="gray" variant="outline" size="xs">
              Not public
            </Badge>
          )}
        </div>
      </td>
      <td className={classes.wide}>
        <p className={classes.text}>{formatCalendarDate(record.intake_date)}</p>
      </td>
      <td>
        <RecordBadges
          pending={pending}
          pendingFields={pendingFields}
          needsAttention={needsAttention}
          presence={presence}
        />
      </td>
    </tr>
  );
});
