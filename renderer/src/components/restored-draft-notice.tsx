import { Alert } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** When a kept draft was last typed into, as staff read it: the time today, else the day and time. */
export function keptAt(savedAt: string, now = new Date()): string {
  const at = new Date(savedAt);
  const time = at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}, ${time}`;
}

/** Says that a form holds typing the desk kept through a reload or a restart, not a fresh start. */
export function RestoredDraftNotice(props: { savedAt: string; onClose(): void; children: ReactNode }) {
  return (
    <Alert
      color="sage"
      variant="light"
      icon={<IconRestore aria-hidden />}
      title={`Typing kept from ${keptAt(props.savedAt)}`}
      withCloseButton
      closeButtonLabel="Hide this note"
      onClose={props.onClose}
      role="status"
    >
      {props.children}
    </Alert>
  );
}
