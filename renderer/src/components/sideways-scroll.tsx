import { Box, type MantineSpacing, Table, Text } from '@mantine/core';
import { type ReactNode, type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import classes from './sideways-scroll.module.css';

/** Which sides of a box have content scrolled out of sight. */
interface HiddenSides {
  left: boolean;
  right: boolean;
}

function useHiddenSides(box: RefObject<HTMLDivElement | null>): HiddenSides {
  const [sides, setSides] = useState<HiddenSides>({ left: false, right: false });
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      // A pixel's slack: zoomed, the widths are fractional.
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setSides((shown) => (shown.left === left && shown.right === right ? shown : { left, right }));
    };
    measure();
    // The box narrows with the window; the table widens as its rows arrive.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [box]);
  return sides;
}

/** What the line over a table that does not fit says, by where its hidden columns are. */
function sidewaysHint({ left, right }: HiddenSides): string | null {
  if (right)
    return left
      ? 'More columns on both sides: scroll sideways.'
      : 'More columns to the right: scroll sideways.';
  return left ? 'More columns to the left: scroll back.' : null;
}

/**
 * A wide table's box. In a window too narrow for its columns (a phone, a high zoom) the table scrolls sideways inside
 * it rather than squeeze or cut off its columns, and says so: a line over it names the side with more, each such side
 * fades out, and the box takes the keyboard's focus, so its arrow keys scroll it.
 */
export function SidewaysScroll({
  label,
  minWidth,
  mt,
  mb,
  hintInset,
  children,
}: {
  /** The table's name (the box is "<label>, wider than the window" while it scrolls). */
  label: string;
  /** The least width its columns need, in px at the default text size (Mantine's rem). */
  minWidth: number;
  mt?: MantineSpacing;
  mb?: MantineSpacing;
  /** The line's inset from the sides, as the table's cells have it (a table flush with its card's sides). */
  hintInset?: MantineSpacing;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const sides = useHiddenSides(box);
  const hint = sidewaysHint(sides);
  const hintId = useId();
  const scrolls = sides.left || sides.right;
  return (
    <Box mt={mt} mb={mb}>
      {hint && (
        <Text id={hintId} size="xs" c="dimmed" mb={4} px={hintInset} data-sideways-hint>
          {hint}
        </Text>
      )}
      <div
        className={classes.edges}
        data-more-left={sides.left || undefined}
        data-more-right={sides.right || undefined}
      >
        <Table.ScrollContainer
          ref={box}
          minWidth={minWidth}
          type="native"
          className={classes.box}
          classNames={{ scrollContainerInner: classes.inner }}
          {...(scrolls && {
            tabIndex: 0,
            role: 'region',
            'aria-label': `${label}, wider than the window`,
            'aria-describedby': hintId,
          })}
        >
          {children}
        </Table.ScrollContainer>
      </div>
    </Box>
  );
}
