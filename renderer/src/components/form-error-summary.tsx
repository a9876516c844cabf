import { Alert, Anchor, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { scrollBehavior } from '../lib/motion';

/** The fields in the order the form shows them (by their `data-field` inputs); those it does not show, last. */
function inFormOrder(form: HTMLFormElement, fields: string[]): string[] {
  const input = (field: string) => form.querySelector(`[data-field="${CSS.escape(field)}"]`);
  const placed = fields.map((field) => ({ field, element: input(field) }));
  return placed
    .sort((a, b) => {
      if (!a.element || !b.element) return a.element ? -1 : b.element ? 1 : 0;
      return a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    })
    .map(({ field }) => field);
}

/**
 * The messages of a form at its top, each a link to its field (inputs carry `data-field`), in the form's order, as
 * the list of what to fix before saving. Each message is also shown at its field and goes away as soon as the field
 * is changed.
 *
 * `refusals` counts the saves refused with field messages: each one brings the summary into view and gives it the
 * focus, since the Save button pressed is often a screen below it (a long intake form).
 */
export function FormErrorSummary({ errors, refusals }: { errors: Record<string, string>; refusals: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [order, setOrder] = useState<string[]>([]);
  const fields = Object.keys(errors).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: ordered again whenever the fields with messages change.
  useLayoutEffect(() => {
    const form = ref.current?.closest('form');
    if (form) setOrder(inFormOrder(form, Object.keys(errors)));
  }, [fields]);
  const rank = (field: string) => {
    const at = order.indexOf(field);
    return at < 0 ? order.length : at;
  };
  const entries = Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b));
  // Refusals before this summary mounted (a form shown again with its messages) are not revealed again.
  const revealed = useRef(refusals);
  useEffect(() => {
    if (refusals <= revealed.current) return;
    revealed.current = refusals;
    ref.current?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
    ref.current?.focus({ preventScroll: true });
  }, [refusals]);
  if (entries.length === 0) return null;
  const focus = (field: string) => {
    const form = ref.current?.closest('form');
    const input = form?.querySelector<HTMLElement>(`[data-field="${field}"]`);
    input?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
    input?.focus({ preventScroll: true });
  };
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle aria-hidden />}
      title="Please check the marked fields"
    >
      {/* Spaced so each link is a 24 px target (WCAG 2.5.8). */}
      <List size="sm" spacing={6}>
        {entries.map(([field, message]) => (
          <List.Item key={field}>
            {/* A button centres its text and sits on its last line: a long message read as centred under its bullet. */}
            <Anchor
              component="button"
              type="button"
              size="sm"
              ta="start"
              style={{ verticalAlign: 'top' }}
              onClick={() => focus(field)}
            >
              {message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
