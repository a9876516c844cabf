import { Alert, Anchor, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { scrollBehavior } from '../lib/motion';

/**
 * The messages of a form at its top, each a link to its field (inputs carry `data-field`), as the list of what to fix
 * before saving. Each message is also shown at its field and goes away as soon as the field is changed.
 *
 * `refusals` counts the saves refused with field messages: each one brings the summary into view and gives it the
 * focus, since the Save button pressed is often a screen below it (a long intake form).
 */
export function FormErrorSummary({ errors, refusals }: { errors: Record<string, string>; refusals: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const entries = Object.entries(errors);
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
      icon={<IconAlertCircle />}
      title="Please check the marked fields"
    >
      {/* Spaced so each link is a 24 px target (WCAG 2.5.8). */}
      <List size="sm" spacing={6}>
        {entries.map(([field, message]) => (
          <List.Item key={field}>
            <Anchor component="button" type="button" size="sm" onClick={() => focus(field)}>
              {message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
