import { Badge, Button, Card, CloseButton, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useDeskEvent, useDeskQuery } from '../bridge/hooks';
import { useReloadOnChange } from '../lib/live-data';
import { forgetRemembered } from '../lib/remembered';

/** Where Intake and People keep the cards of the records they saved while staff visit other screens. */
export const SAVED_INTAKES_KEY = 'intake.saved';
export const SAVED_SIGN_UPS_KEY = 'people.saved';

/**
 * A backup put back replaces the shelter's records, so the cards of records saved before it no longer say anything
 * true (one would say a person the backup never had was "discarded under Sync"): they go.
 */
export function useSavedCardsForgottenOnRestore(): void {
  useDeskEvent('restore', (event) => {
    if (!event.running) forgetRemembered([SAVED_INTAKES_KEY, SAVED_SIGN_UPS_KEY]);
  });
}

/**
 * The confirmation of a record saved on this desk (an intake, a sign-up). It follows the record from its local id
 * to the id the server gives it (the desk remembers where local ids went), and says where the record is: waiting on
 * this desk, or on the shelter's server.
 */
export function SavedRecordCard({
  kind,
  id,
  name,
  title,
  label,
  focused = false,
  standalone,
  onOpen,
  onDismiss,
}: {
  kind: 'pet' | 'person';
  /** The id the save returned (a local id for a new record). */
  id: string;
  /** The record's name when it was saved; the card follows a later edit of it (a typo put right). */
  name: string;
  /** "Bella is recorded", "Dana Lee is signed up", of the record's name now. */
  title(name: string): string;
  /** Accessible name of the card, of the record's name now. */
  label(name: string): string;
  /** Takes the focus when it appears (the record was just saved): the save button it replaces had it. */
  focused?: boolean;
  /** This desk runs the shelter (the screen asks once for all its cards): its records are the shelter's records. */
  standalone: boolean | undefined;
  onOpen(id: string): void;
  /** Takes the card away (it is only a confirmation: the record stays). */
  onDismiss(): void;
}) {
  const card = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the card appears.
  useEffect(() => {
    if (focused) card.current?.focus();
  }, []);
  const record = useDeskQuery(kind === 'pet' ? 'mirror.pets.get' : 'mirror.people.get', { id });
  useReloadOnChange(kind === 'pet' ? ['pets'] : ['adopters', 'fosters', 'people'], record.reload);
  const data = record.data;
  const gone = record.error?.code === 'not_found';
  const heading = title(data?.record.name ?? name);
  const onServer = data ? !data.pending && data.presence !== 'local' : false;
  const line = onServer
    ? standalone
      ? 'It is in the shelter’s records, for every desk that shares them.'
      : 'It is on the shelter’s server.'
    : gone
      ? 'It was discarded under Sync before it reached the server.'
      : 'Saved on this desk. It is sent to the shelter’s server when the connection allows.';
  return (
    <Card
      ref={card}
      component="article"
      withBorder
      radius="lg"
      p="md"
      aria-label={label(data?.record.name ?? name)}
      tabIndex={-1}
      data-saved-record={id}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color={onServer ? 'teal' : 'yellow'} variant="light" size="lg" radius="xl">
            {onServer ? <IconCircleCheck aria-hidden size={20} /> : <IconClockHour4 aria-hidden size={20} />}
          </ThemeIcon>
          <Stack gap={0}>
            <Title order={4}>{heading}</Title>
            <Text size="sm" c="dimmed">
              {line}
            </Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Badge color={onServer ? 'teal' : gone ? 'gray' : 'yellow'} variant="light">
            {onServer ? (standalone ? 'Recorded' : 'On the server') : gone ? 'Discarded' : 'Not sent yet'}
          </Badge>
          {data && (
            <Button variant="light" size="xs" onClick={() => onOpen(data.record.id)}>
              Open
            </Button>
          )}
          <CloseButton
            aria-label={`Dismiss: ${heading}`}
            title="Dismiss"
            onClick={() => {
              // The button goes with the card: the focus waits on the screen, not on the page's body.
              document.getElementById('main-content')?.focus({ preventScroll: true });
              onDismiss();
            }}
          />
        </Group>
      </Group>
    </Card>
  );
}
