import { Checkbox, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { DeskError, MirrorPet } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { SavedLine } from '../components/saved-line';
import { useStandalone } from '../lib/connection';
import { toDeskError } from '../lib/desk-error';
import { statusOptions } from '../lib/words';

/**
 * The most common edit at an event: a new status with a short note (and, for an available pet off the public list,
 * listing it). Sends only those fields, and says whether the change still waits on this desk or has reached the
 * shelter's server (as the drawer's pet shows it).
 */
export function QuickStatus({
  pet,
  statuses,
  onTypedChange,
}: {
  pet: MirrorPet;
  statuses: readonly string[];
  /** Whether a status, note or listing is chosen here and not saved yet. */
  onTypedChange?: ((typed: boolean) => void) | undefined;
}) {
  const api = useDesk();
  const standalone = useStandalone();
  const [status, setStatus] = useState(pet.record.status);
  const [notes, setNotes] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<DeskError>();
  const [saved, setSaved] = useState<Record<string, unknown>>();
  // An available pet off the public list is one adopters cannot find: the form offers to list it in the same save.
  const [publish, setPublish] = useState(false);
  useEffect(() => setStatus(pet.record.status), [pet.record.status]);
  const offersPublishing = status === 'available' && !pet.record.show_public;
  const publishing = offersPublishing && publish;
  // A status just saved is not unsaved while the drawer's pet still shows the one before (until its reload).
  const statusChosen = status !== pet.record.status && saved?.status !== status;
  const unsaved = statusChosen || notes.trim() !== '' || publishing;
  useEffect(() => onTypedChange?.(unsaved), [unsaved, onTypedChange]);
  useEffect(() => () => onTypedChange?.(false), [onTypedChange]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const fields: Record<string, unknown> = { status };
      if (notes.trim()) fields.status_change_notes = notes.trim();
      // A new status without a note of its own does not keep the last one's ("hold till 3pm" on an adopted pet).
      else if (status !== pet.record.status && pet.record.status_change_notes)
        fields.status_change_notes = '';
      if (publishing) fields.show_public = true;
      await api.call('outbox.updatePet', { id: pet.record.id, fields, force: true });
      setNotes('');
      setPublish(false);
      setSaved(fields);
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  const sent = saved !== undefined && holdsSent(pet, saved);

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} aria-label="Change status">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Change status"
            data={statusOptions(statuses)}
            value={status}
            onChange={(value) => value && setStatus(value)}
            searchable
            allowDeselect={false}
            w={210}
          />
          <TextInput
            label="Notes"
            placeholder="e.g. Met adopters at the event"
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 180 }}
          />
          <BusyButton
            type="submit"
            loading={saving}
            disabled={status === pet.record.status && !notes.trim() && !publishing}
          >
            {status === pet.record.status && notes.trim() && !publishing ? 'Save note' : 'Save status'}
          </BusyButton>
        </Group>
        {status === 'adopted' && pet.record.status !== 'adopted' && (
          <Text size="sm" c="dimmed" mt="xs">
            This marks the pet adopted without an adopter. To record who adopted it, use “Start an adoption”
            above, or approve their application under Applications.
          </Text>
        )}
        {offersPublishing && (
          <Checkbox
            mt="sm"
            label="Also show it on the public list"
            description="Adopters and your website see an available pet only when it is on the public list."
            checked={publish}
            onChange={(event) => setPublish(event.currentTarget.checked)}
          />
        )}
        {/* The last save's line goes once something new is chosen, so it never reads as this choice's. */}
        {saved && !unsaved && (
          <SavedLine mt="xs" waiting={!sent}>
            {sent
              ? standalone
                ? 'Saved: it is in your shelter’s records.'
                : 'Saved and sent: it is on the shelter’s server.'
              : standalone
                ? 'Saved; adding it to your shelter’s records…'
                : 'Saved on this desk; sent when the connection allows.'}
          </SavedLine>
        )}
        {error && (
          <Stack mt="sm">
            <DeskErrorAlert error={error} title="Status not saved" />
          </Stack>
        )}
      </form>
    </Paper>
  );
}

/** Sent once the drawer's pet holds the saved fields with none of them pending (before its reload it holds neither). */
function holdsSent(pet: MirrorPet, saved: Record<string, unknown>): boolean {
  const record = pet.record as Record<string, unknown>;
  // A note emptied may come back from the server as null.
  return Object.entries(saved).every(
    ([field, value]) =>
      (record[field] === value || (value === '' && record[field] === null)) &&
      !pet.pendingFields.includes(field),
  );
}
