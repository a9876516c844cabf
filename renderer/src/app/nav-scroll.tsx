import { Box, ScrollArea, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

/**
 * The navigation's scrolling area, with a cue ("More below") while sections are out of sight under the fold, so a
 * short window never hides Settings without a sign.
 */
export function NavScroll({ children }: { children: ReactNode }) {
  const viewport = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const check = useCallback(() => {
    const element = viewport.current;
    if (element) setMore(element.scrollTop + element.clientHeight < element.scrollHeight - 4);
  }, []);
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [check]);
  return (
    <Box pos="relative" h="100%">
      <ScrollArea h="100%" viewportRef={viewport} onScrollPositionChange={check} type="auto">
        {children}
      </ScrollArea>
      {more && (
        <Text className="nav-more" size="xs" c="dimmed" aria-hidden>
          More below <IconChevronDown aria-hidden size={12} style={{ verticalAlign: 'middle' }} />
        </Text>
      )}
    </Box>
  );
}
