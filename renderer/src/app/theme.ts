import { Badge, createTheme, type MantineColorsTuple } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'sage',
  primaryShade: { light: 8, dark: 6 },
  colors: { sage },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    // Sentence case reads calmer than Mantine's default all-caps badges.
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});
