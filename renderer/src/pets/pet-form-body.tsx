import type { ReactNode } from 'react';
import type { CustomField } from '../../../shared/contract';
import { DuplicateWarnings } from '../components/duplicate-warnings';
import { FormErrorSummary } from '../components/form-error-summary';
import { changedFields } from '../lib/form-messages';
import type { useOutboxWrite } from '../lib/use-outbox-write';
import { PetFields } from './pet-fields';
import { birthdayOnDateChange, messagesOnLeaving, type PetDraft } from './pet-form';
import { PetPhotosInput } from './pet-photos-input';

/**
 * What the intake and the pet edit form both show: the summary of field messages, the pet's fields with its photos after
 * The basics (a change takes away the messages of the fields it touched) and the duplicate warnings of the last save. `children` go between
 * the fields and the warnings (the intake's error).
 */
export function PetFormBody({
  draft,
  original,
  onDraftChange,
  write,
  onSaveAnyway,
  onOpenDuplicate,
  customFields,
  statuses,
  compact,
  shelterIdSuggestion,
  children,
}: {
  draft: PetDraft;
  /** An edit's pet as it was: a field left as it was is not checked (Save sends only what changed). */
  original?: PetDraft;
  onDraftChange(next: PetDraft): void;
  write: ReturnType<typeof useOutboxWrite>;
  /** Saves again, past the duplicate warnings. */
  onSaveAnyway(): void;
  onOpenDuplicate?(existingId: string): void;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  /** Edit drawer: one column. */
  compact?: boolean;
  /** A new pet: the shelter id that would come next on this desk. */
  shelterIdSuggestion?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <>
      <FormErrorSummary errors={write.errors} refusals={write.refusals} />
      <PetFields
        draft={draft}
        onChange={(next) => {
          write.clearFields(changedFields(draft, next));
          // A birthday after today or after the intake date is said as soon as the day is given.
          const birthday = birthdayOnDateChange(draft, next, original);
          if (birthday !== 'unchanged') write.checkField('age_birthday', birthday.message);
          onDraftChange(next);
        }}
        errors={write.errors}
        onNumberLeft={(key) => {
          for (const [field, message] of Object.entries(messagesOnLeaving(key, draft, original))) {
            write.checkField(field, message);
          }
        }}
        customFields={customFields}
        statuses={statuses}
        compact={compact}
        shelterIdSuggestion={shelterIdSuggestion}
        afterBasics={
          <PetPhotosInput
            name={draft.name}
            urls={draft.image_urls}
            error={write.errors.image_urls}
            onChange={(image_urls) => {
              write.clearFields(['image_urls']);
              onDraftChange({ ...draft, image_urls });
            }}
          />
        }
      />
      {children}
      {write.warnings.length > 0 && (
        <DuplicateWarnings
          warnings={write.warnings}
          saving={write.saving}
          onOverride={onSaveAnyway}
          onCancel={write.dismissWarnings}
          onOpen={onOpenDuplicate}
        />
      )}
    </>
  );
}
