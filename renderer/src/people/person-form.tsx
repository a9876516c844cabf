import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { MAX_APPLICATION_PETS, PERSON_CREATE_STATUSES } from '../../../shared/contract';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { ChoiceSelect } from '../components/choice-select';
import { CustomFieldInputs } from '../components/custom-field-inputs';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { DuplicateWarnings } from '../components/duplicate-warnings';
import { FirstSyncNotice } from '../components/first-sync-notice';
import { FormErrorSummary } from '../components/form-error-summary';
import { useTypedSince } from '../components/leave-guard';
import { MarkdownText } from '../components/markdown-text';
import { CONTRACT_WORDS, UnwrittenAgreement, useAgreement } from '../contracts/agreement-text';
import { useKeptDraft } from '../lib/kept-draft';
import { useMetadataQuery } from '../lib/live-data';
import { useOutboxWrite } from '../lib/use-outbox-write';
import { optionsOf } from '../lib/words';
import { PetPicker } from '../pets/pet-picker';
import { ChosenPetNotices } from './chosen-pet-notices';
import { ContactFields } from './contact-fields';
import {
  buildPersonRequest,
  emptyPersonDraft,
  PERSON_FORM_TYPES,
  type PersonDraft,
  type PersonFormType,
  readKeptPersonDraft,
} from './person-form-state';

const TYPE_WORDS: Record<PersonFormType, string> = {
  adopter: 'Adopter',
  foster: 'Foster',
  volunteer: 'Volunteer',
  surrender: 'Surrender',
};

/** Signs up an adopter or foster (optionally applying for 1–5 pets), a volunteer, or a surrender. */
/** Draft keys whose messages are filed under another name. */
const DRAFT_ERROR_FIELDS: Partial<Record<keyof PersonDraft, string[]>> = {
  termsAccepted: ['terms'],
  petIds: ['application', 'pet_ids'],
  withApplication: ['application', 'terms'],
};

/** A person this form signed up, for the card that confirms it. */
export interface SignedUp {
  id: string;
  name: string;
  type: PersonFormType;
  /** Whether an adoption or foster application went with the sign-up. */
  withApplication?: boolean;
}

export function PersonForm({
  initialType,
  applyFor = [],
  resumed,
  onSaved,
  onCancel,
  onTypedChange,
  onOpenDuplicate,
}: {
  initialType: PersonFormType;
  /** Pets the person applies for from the start (a sign-up begun on a pet's page). */
  applyFor?: string[];
  /** A sign-up the desk kept through a reload, continued. */
  resumed?: PersonDraft | undefined;
  onSaved(saved: SignedUp): void;
  onCancel(): void;
  /** Told whether the form holds anything typed (closing it would lose that). */
  onTypedChange?(typed: boolean): void;
  /** Shows a person a duplicate warning names, over the form (which keeps its typing). */
  onOpenDuplicate?(personId: string): void;
}) {
  const api = useDesk();
  const [opened] = useState<PersonDraft>(() => ({
    ...emptyPersonDraft(initialType),
    ...(applyFor.length > 0 && { withApplication: true, petIds: applyFor }),
  }));
  const [draft, setDraft] = useState<PersonDraft>(resumed ?? opened);
  useTypedSince(draft, onTypedChange, opened);
  // Kept on the desk while the form is open (a reload or a crash loses nothing); forgotten when it closes, saved or not.
  // A form that never held typing leaves alone what another one kept (a sign-up People still offers to continue).
  const { keep } = useKeptDraft('sign-up', readKeptPersonDraft);
  const kept = useRef(false);
  useEffect(() => {
    const untouched = JSON.stringify(draft) === JSON.stringify(opened);
    if (untouched && !kept.current) return;
    kept.current = !untouched;
    keep(untouched ? null : draft);
  }, [keep, draft, opened]);
  useEffect(
    () => () => {
      if (kept.current) keep(null);
    },
    [keep],
  );
  const { errors, refusals, error, warnings, saving, showInvalid, clearFields, submit, dismissWarnings } =
    useOutboxWrite();
  const [termsOpen, setTermsOpen] = useState(false);
  const entity = draft.type === 'foster' ? 'foster' : 'adopter';
  const fields = useMetadataQuery('mirror.customFields', { entity });
  const agreement = useAgreement(draft.type);
  const agreementUnwritten = agreement.state === 'unwritten';
  const set = <K extends keyof PersonDraft>(key: K, value: PersonDraft[K]) => {
    // A field's message goes as soon as the field is changed (terms and pets answer for the application).
    clearFields([key, ...(DRAFT_ERROR_FIELDS[key] ?? [])]);
    setDraft((previous) => ({ ...previous, [key]: value }));
  };
  const applies = draft.type === 'adopter' || draft.type === 'foster';
  const showCustom = applies && (fields.data?.fields ?? []).some((field) => !field.hidden);

  async function save(force: boolean) {
    // The shelter's questions are asked of adopters and fosters only.
    const built = buildPersonRequest(draft, showCustom ? fields.data?.fields : [], { agreementUnwritten });
    if (!built.ok) return showInvalid(built.errors);
    const queued = await submit(() => api.call('outbox.createPerson', { request: built.request, force }));
    if (queued) {
      onSaved({
        id: queued.entityId,
        name: draft.name.trim(),
        type: draft.type,
        withApplication: built.request.application !== undefined,
      });
    }
  }

  return (
    <form
      aria-label="New person"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save(false);
      }}
    >
      <Stack gap="lg">
        <FormErrorSummary errors={errors} refusals={refusals} />
        <SegmentedControl
          aria-label="Sign up as"
          value={draft.type}
          onChange={(value) => set('type', value as PersonFormType)}
          data={PERSON_FORM_TYPES.map((type) => ({ value: type, label: TYPE_WORDS[type] }))}
          fullWidth
        />
        <ContactFields values={draft} errors={errors} onChange={set}>
          <ChoiceSelect
            label="Status"
            data={optionsOf(PERSON_CREATE_STATUSES)}
            value={draft.status}
            onChange={(value) => set('status', value ?? 'pending')}
            allowDeselect={false}
            error={errors.status}
            data-field="status"
          />
        </ContactFields>
        {draft.type === 'foster' && (
          <TextInput
            label="How many animals can they take?"
            inputMode="numeric"
            w={260}
            value={draft.capacity}
            onChange={(event) => set('capacity', event.currentTarget.value)}
            error={errors.capacity}
            data-field="capacity"
          />
        )}
        {applies && fields.data?.fetchedAt === null && (
          <FirstSyncNotice>
            Your shelter’s questions for {draft.type === 'adopter' ? 'adopters' : 'fosters'} arrive with the
            first sync, so the ones it requires cannot be asked yet. You can sign them up now and add the
            answers later.
          </FirstSyncNotice>
        )}
        {showCustom && (
          <Stack gap="xs">
            <Title order={4}>Your shelter’s questions</Title>
            <CustomFieldInputs
              fields={fields.data?.fields ?? []}
              values={draft.custom_field_data}
              onChange={(next) => set('custom_field_data', next)}
              errors={errors}
            />
          </Stack>
        )}
        {applies && (
          <Paper withBorder radius="md" p="md">
            <Stack gap="sm">
              <Checkbox
                label={`Apply ${draft.type === 'adopter' ? 'to adopt' : 'to foster'} pets now`}
                checked={draft.withApplication}
                onChange={(event) => set('withApplication', event.currentTarget.checked)}
              />
              {draft.withApplication && (
                <>
                  <PetPicker
                    label="Pets"
                    description={`Choose 1 to ${MAX_APPLICATION_PETS} pets.`}
                    value={draft.petIds}
                    onChange={(ids) => set('petIds', ids)}
                    max={MAX_APPLICATION_PETS}
                    error={errors.application}
                    field="application"
                  />
                  <ChosenPetNotices petIds={draft.petIds} adopting={draft.type === 'adopter'} />
                  {agreementUnwritten ? (
                    <Stack gap={4} data-field="terms" tabIndex={-1}>
                      <Text size="sm" fw={600}>
                        No agreement to accept yet
                      </Text>
                      <UnwrittenAgreement type={draft.type} />
                      <Text size="sm" c="dimmed">
                        Until then, untick “Apply {draft.type === 'adopter' ? 'to adopt' : 'to foster'} pets
                        now” to save the sign-up alone.
                      </Text>
                      {errors.terms && (
                        <Text size="sm" c="red">
                          {errors.terms}
                        </Text>
                      )}
                    </Stack>
                  ) : (
                    <Group gap="xs" align="flex-start" wrap="nowrap">
                      <Checkbox
                        label="The applicant has read and accepts the agreement"
                        checked={draft.termsAccepted}
                        onChange={(event) => set('termsAccepted', event.currentTarget.checked)}
                        error={errors.terms}
                        data-field="terms"
                      />
                      <Anchor component="button" type="button" size="sm" onClick={() => setTermsOpen(true)}>
                        Read the agreement
                      </Anchor>
                    </Group>
                  )}
                </>
              )}
            </Stack>
          </Paper>
        )}
        {draft.type === 'surrender' && (
          <Paper withBorder radius="md" p="md">
            <Stack gap="sm">
              <PetPicker
                label="Pets given up"
                description="Record new animals under Intake first, then choose them here."
                value={draft.petIds}
                onChange={(ids) => set('petIds', ids)}
              />
              <TextInput
                label="Reason"
                value={draft.reason}
                onChange={(event) => set('reason', event.currentTarget.value)}
              />
              <Anchor component="button" type="button" size="sm" onClick={() => setTermsOpen(true)}>
                Read the surrender form
              </Anchor>
            </Stack>
          </Paper>
        )}
        {error && Object.keys(errors).length === 0 && <DeskErrorAlert error={error} title="Not saved" />}
        {warnings.length > 0 && (
          <DuplicateWarnings
            warnings={warnings}
            saving={saving}
            onOverride={() => void save(true)}
            onCancel={dismissWarnings}
            onOpen={onOpenDuplicate}
          >
            {draft.withApplication && (
              <Text size="sm" mb="sm">
                The shelter’s server takes an application only with a sign-up, so someone who applies again is
                signed up again: saving anyway adds a second record for them, with this application.
              </Text>
            )}
          </DuplicateWarnings>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <BusyButton type="submit" loading={saving}>
            Save {TYPE_WORDS[draft.type].toLowerCase()}
          </BusyButton>
        </Group>
      </Stack>
      <Modal
        opened={termsOpen}
        onClose={() => setTermsOpen(false)}
        title={CONTRACT_WORDS[draft.type].title}
        size="lg"
      >
        {agreement.state === 'written' && agreement.contract.data ? (
          <MarkdownText>{agreement.contract.data.content}</MarkdownText>
        ) : agreementUnwritten ? (
          <UnwrittenAgreement type={draft.type} />
        ) : (
          <Text c="dimmed">The agreement text arrives with the first sync.</Text>
        )}
      </Modal>
    </form>
  );
}
