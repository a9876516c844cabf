import {
  Alert,
  Badge,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  type MantineColorsTuple,
  Modal,
  Select,
} from '@mantine/core';
import { enterPicksHighlighted } from '../lib/picker-enter';

/** A calm green-teal: reads as "care", stays quiet next to pet photos, good contrast in both schemes. */
const sage: MantineColorsTuple = [
  '#e9f8f4',
  '#d8eee8',
  '#b0dccf',
  '#85c9b5',
  '#62b9a0',
  '#4caf92',
  '#3eaa8b',
  '#2e9578',
  '#21846a',
  '#07735a',
];

/**
 * A searchable select's text is chosen whole when it gets the focus or a click: what is typed then replaces the
 * current value and filters the list (typing after it made "Availablehold", which matched nothing, and the value
 * silently stayed). Enter picks the first match.
 */
const selectWholeValue = (event: { currentTarget: HTMLInputElement }) => {
  if (!event.currentTarget.readOnly) event.currentTarget.select();
};

export const theme = createTheme({
  primaryColor: 'sage',
  // Shade 8 in both schemes: white button text on it is 4.6:1 (shade 6 in the dark scheme was 2.9:1).
  primaryShade: { light: 8, dark: 8 },
  colors: { sage },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  // prefers-reduced-motion: reduce sets every Mantine transition (drawers, modals, popovers, collapses) to 0 ms.
  respectReducedMotion: true,
  components: {
    // Sentence case reads calmer than Mantine's default all-caps badges.
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
    // Icon-only close buttons (dialogs, drawers, notifications) and the clear button of inputs need a name.
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    InputClearButton: { defaultProps: { 'aria-label': 'Clear' } },
    Select: Select.extend({
      defaultProps: {
        selectFirstOptionOnChange: true,
        onFocus: selectWholeValue,
        onClick: selectWholeValue,
        onKeyDown: enterPicksHighlighted,
      },
    }),
    // Mantine clips an alert's message (overflow: hidden), which cut the focus ring of a button at its edge (Copy
    // under a new key); the alert's own padding holds the ring.
    Alert: Alert.extend({ styles: { message: { overflow: 'visible' } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A record opened from a list shows in the next frame: the default 200 ms slide kept a drawer off screen for
    // twice the desk's 100 ms budget for opening a pet.
    Drawer: Drawer.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, transitionProps: { duration: 0 } },
    }),
  },
});

/** Mantine's colours a light-variant badge, an outline or coloured text use, per scheme. */
const TEXT_COLORS = ['red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime'];

/**
 * WCAG AA contrast (4.5:1 for text) in both schemes, where Mantine's defaults fall short: dimmed text
 * (gray 6 on white was 3.3:1, dark 2 on a dark card 3.5:1), error text, light badges (shade 9 on
 * shade 1 was 4.3:1: now on shade 0), outline badges and coloured text (shade 8: now 9). Orange and
 * yellow have no shade dark enough on white, so they get a deeper brown-orange / ochre for text.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-sage-9)',
  };
  for (const color of [...TEXT_COLORS, 'sage', 'orange', 'yellow', 'gray']) {
    light[`--mantine-color-${color}-light`] = `var(--mantine-color-${color}-0)`;
    light[`--mantine-color-${color}-light-hover`] = `var(--mantine-color-${color}-1)`;
  }
  for (const color of [...TEXT_COLORS, 'sage', 'gray']) {
    light[`--mantine-color-${color}-text`] = `var(--mantine-color-${color}-9)`;
    light[`--mantine-color-${color}-outline`] = `var(--mantine-color-${color}-9)`;
  }
  for (const [color, deep] of [
    ['orange', '#a94300'],
    ['yellow', '#8a5a00'],
  ] as const) {
    light[`--mantine-color-${color}-light-color`] = deep;
    light[`--mantine-color-${color}-text`] = deep;
    light[`--mantine-color-${color}-outline`] = deep;
  }
  light['--mantine-color-orange-filled'] = '#bf4400';
  light['--mantine-color-orange-filled-hover'] = '#a94300';
  return {
    variables: {},
    light,
    dark: {
      // Subtle and light buttons, light badges in the app's green, as in the light scheme (Mantine's dark default is
      // shade 0, near white, which made "Make a new code" read as plain bold text): shade 3 is 7.1:1 on a dark card
      // and 6.7:1 on a light button's own background.
      '--mantine-color-sage-light-color': 'var(--mantine-color-sage-3)',
      '--mantine-color-dimmed': '#a9a9a9',
      '--mantine-color-error': 'var(--mantine-color-red-4)',
      '--mantine-color-orange-filled': '#bf4400',
      '--mantine-color-orange-filled-hover': '#a94300',
    },
  };
};
