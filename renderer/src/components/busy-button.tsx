import { Button, type ButtonProps, type ElementProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { type Ref, useLayoutEffect, useRef } from 'react';
import { focusIsLost } from '../lib/use-focus-back';

type BusyButtonProps = ButtonProps &
  ElementProps<'button', keyof ButtonProps> & { ref?: Ref<HTMLButtonElement> };

/** The last field before `button` in its form (or the group around it): the one a Save button saves. */
function fieldBefore(button: HTMLElement): HTMLElement | undefined {
  const scope = button.closest('form') ?? button.parentElement?.parentElement;
  const fields = scope?.querySelectorAll<HTMLElement>(
    'input:not([type=hidden]):not(:disabled), textarea:not(:disabled)',
  );
  return [...(fields ?? [])]
    .filter((field) => field.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING)
    .at(-1);
}

/**
 * A button that keeps the focus through its work. Mantine disables a button while it is `loading`, and the browser
 * moves the focus of a disabled button to the page itself: a keyboard user pressed "Back up now" and had to Tab from
 * the top of the page again. This one takes the focus back when the work ends, unless the person (or the screen, by
 * opening a dialog or showing a field) moved it elsewhere meanwhile; a Save that stays disabled once its field is
 * saved gives it to that field. The page does not scroll for it: the person may have scrolled away while it worked.
 */
export function BusyButton({ loading, ref, ...props }: BusyButtonProps) {
  const own = useRef<HTMLButtonElement>(null);
  const merged = useMergedRef(own, ref);
  const hadFocusWhenBusy = useRef(false);
  useLayoutEffect(() => {
    const button = own.current;
    if (loading) {
      // Runs before the browser's focus fix-up, which happens when the page is next drawn.
      if (document.activeElement === button) hadFocusWhenBusy.current = true;
      return;
    }
    if (!hadFocusWhenBusy.current) return;
    hadFocusWhenBusy.current = false;
    if (!button?.isConnected || !focusIsLost()) return;
    const target = button.disabled ? fieldBefore(button) : button;
    target?.focus({ preventScroll: true });
  }, [loading]);
  return <Button ref={merged} loading={loading} {...props} />;
}
