import { Button, Group, NumberInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { CustomField, Person } from '../../../shared/contract';
import type { DeskError } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { CustomFieldInputs } from '../components/custom-field-inputs';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { FormErrorSummary } from '../components/form-error-summary';
import { type LeaveGuard, useTypedSince } from '../components/leave-guard';
import type { StoredKeys } from '../lib/custom-field-rows';
import { fieldMessages, toDeskError } from '../lib/desk-error';
import { fieldSentences } from '../lib/form-messages';
import { useFieldMessages } from '../lib/use-field-messages';
import { useFocusWhen } from '../lib/use-focus-when';
import { ContactFields } from './contact-fields';
import { buildPersonEdit, draftFromPerson, type PersonEditDraft } from './person-edit';

/**
 * Edits a person on the shelter this desk runs: saved at once through the shelter's staff operations (the embedded
 * server is in this desk, so there is nothing to queue), then the desk syncs and the page shows the saved values.
 */
export function PersonEditForm({
  person,
  fields,
  storedKeys,
  editGuard,
  onDone,
}: {
  person: Person;
  fields: readonly CustomField[];
  storedKeys: StoredKeys;
  /** Asks before typed changes are left by Cancel (the drawer's own close asks through the same guard). */
  editGuard: LeaveGuard;
  /** The form is done with: `saved` after a Save that changed something, false otherwise. */
  onDone(saved: boolean): void;
}) {
  const api = useDesk();
  const [before] = useState(() => draftFromPerson(person, fields, storedKeys));
  const [draft, setDraft] = useState<PersonEditDraft>(before);
  useTypedSince(draft, editGuard.reportTyped);
  const { errors, setErrors, refusals, refuse } = useFieldMessages();
  const [error, setError] = useState<DeskError>();
  // Edit, which had the focus, went away with the person's page: the form's heading takes it.
  const heading = useFocusWhen<HTMLHeadingElement>(true);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof PersonEditDraft>(key: K, value: PersonEditDraft[K]) => {
    setErrors(({ [key]: _fixed, ...rest }) => rest);
    setDraft((previous) => ({ ...previous, [key]: value }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const built = buildPersonEdit(before, draft, person.type, fields);
    if ('errors' in built) return refuse(built.errors);
    if (Object.keys(built.changes).length === 0) return onDone(false);
    setSaving(true);
    setError(undefined);
    try {
      await api.call('people.update', { id: person.id, changes: built.changes });
      onDone(true);
    } catch (caught) {
      const deskError = toDeskError(caught);
      refuse(fieldSentences(fieldMessages(deskError)));
      setError(deskError);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save} aria-label={`Edit ${person.name}`} noValidate>
      <Stack gap="md">
        <Title order={2} ref={heading} tabIndex={-1}>
          Edit {person.name}
        </Title>
        <Text size="sm" c="dimmed">
          Saved in your shelter’s records at once; other desks see the change at their next sync.
        </Text>
        <FormErrorSummary errors={errors} refusals={refusals} />
        {error && !error.fieldErrors?.length && <DeskErrorAlert error={error} title="Not saved" />}
        <ContactFields values={draft} errors={errors} onChange={set} />
        {person.type === 'foster' && (
          <NumberInput
            label="Capacity"
            description="How many animals this home can take at once"
            min={0}
            allowDecimal={false}
            value={draft.capacity}
            onChange={(value) => set('capacity', typeof value === 'number' ? value : '')}
            error={errors.capacity}
            data-field="capacity"
            maw={200}
          />
        )}
        <Textarea
          label="Notes"
          description="Kept with the person's status; staff see them on this page"
          autosize
          minRows={2}
          value={draft.status_change_notes}
          onChange={(e) => set('status_change_notes', e.currentTarget.value)}
          error={errors.status_change_notes}
          data-field="status_change_notes"
        />
        <CustomFieldInputs
          fields={fields}
          values={draft.custom}
          errors={errors}
          onChange={(next) => set('custom', next)}
        />
        {errors.custom_field_data && (
          <Text c="red" size="sm">
            {errors.custom_field_data}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={editGuard.guard(() => onDone(false))} disabled={saving}>
            Cancel
          </Button>
          <BusyButton type="submit" loading={saving}>
            Save
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
