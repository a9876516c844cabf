import { Typography } from '@mantine/core';
import Markdown from 'react-markdown';

/** Shelter-supplied Markdown (contracts). Raw HTML in it is dropped, never rendered. */
export function MarkdownText({ children }: { children: string }) {
  return (
    <Typography>
      <Markdown skipHtml>{children}</Markdown>
    </Typography>
  );
}
