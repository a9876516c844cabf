import {
  type CustomField,
  MAX_APPLICATION_PETS,
  personCreateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import { type FieldMessages, NO_AGREEMENT_TO_ACCEPT } from '../lib/form-messages';
import { readKeptDraft } from '../lib/read-kept-draft';
import { missingCustomFields, readCustomDates } from '../lib/required-custom-fields';
import { phoneMessage } from './typed-phone';

export const PERSON_FORM_TYPES = ['adopter', 'foster', 'volunteer', 'surrender'] as const;
export type PersonFormType = (typeof PERSON_FORM_TYPES)[number];

/** The sign-up form's state. */
export interface PersonDraft {
  type: PersonFormType;
  name: string;
  email: string;
  phone: string;
  address: string;
  status: string;
  capacity: string;
  custom_field_data: Record<string, unknown>;
  /** Adopters and fosters: apply for pets now. */
  withApplication: boolean;
  /** Mirror ids of the pets applied for (adopter/foster) or surrendered (surrender). */
  petIds: string[];
  termsAccepted: boolean;
  /** Surrender: why the owner gives the pets up. */
  reason: string;
}

export function emptyPersonDraft(type: PersonFormType = 'adopter'): PersonDraft {
  return {
    type,
    name: '',
    email: '',
    phone: '',
    address: '',
    status: 'pending',
    capacity: '',
    custom_field_data: {},
    withApplication: false,
    petIds: [],
    termsAccepted: false,
    reason: '',
  };
}

/** A sign-up kept on the desk (`drafts.*`), read onto an empty one; undefined when it is not one. */
export function readKeptPersonDraft(kept: unknown): PersonDraft | undefined {
  const type = (kept as { type?: unknown } | null)?.type;
  if (!PERSON_FORM_TYPES.includes(type as PersonFormType)) return undefined;
  return readKeptDraft(emptyPersonDraft(type as PersonFormType), kept);
}

/**
 * The POST /api/people request of the form, or messages per field. The person is checked with
 * `personCreateSchema` and for the shelter's own fields marked required in `customFields`; the application
 * separately, because pets created on this desk still have local ids (the desk swaps in the server id before sending).
 */
export function buildPersonRequest(
  draft: PersonDraft,
  customFields: readonly CustomField[] = [],
  { agreementUnwritten = false }: { agreementUnwritten?: boolean } = {},
): { ok: true; request: Record<string, unknown> } | { ok: false; errors: FieldMessages } {
  const request: Record<string, unknown> = { type: draft.type, name: draft.name.trim() };
  for (const key of ['email', 'phone', 'address'] as const) {
    if (draft[key].trim() !== '') request[key] = draft[key].trim();
  }
  if (draft.status) request.status = draft.status;
  if (draft.type === 'foster' && draft.capacity.trim() !== '') {
    const capacity = Number(draft.capacity);
    request.capacity = Number.isFinite(capacity) ? capacity : draft.capacity;
  }
  const dates = readCustomDates(customFields, draft.custom_field_data);
  const custom = Object.fromEntries(
    Object.entries(dates.values).filter(([, value]) => value !== '' && value !== undefined),
  );
  if (Object.keys(custom).length > 0) request.custom_field_data = custom;

  const errors: FieldMessages = {};
  const parsed = personCreateSchema.safeParse(request);
  if (!parsed.success) {
    for (const error of toFieldErrors(parsed.error, request)) {
      const field = error.field.split(/[.[]/)[0] ?? error.field;
      errors[field] ??= error.message;
    }
  }
  const phone = phoneMessage(draft.phone);
  if (phone) errors.phone ??= phone;
  if (draft.type === 'foster' && request.capacity !== undefined && typeof request.capacity !== 'number') {
    errors.capacity = 'must be a whole number';
  }

  const applies = (draft.type === 'adopter' || draft.type === 'foster') && draft.withApplication;
  if (applies) {
    if (draft.petIds.length === 0) errors.application = 'choose at least one pet';
    else if (draft.petIds.length > MAX_APPLICATION_PETS)
      errors.application = `choose at most ${MAX_APPLICATION_PETS} pets`;
    if (agreementUnwritten) errors.terms = NO_AGREEMENT_TO_ACCEPT;
    else if (!draft.termsAccepted) errors.terms = 'the applicant must accept the terms';
    request.application = { pet_ids: draft.petIds, terms_accepted: draft.termsAccepted };
  }
  if (draft.type === 'surrender' && draft.petIds.length > 0) {
    request.pets = draft.petIds.map((petId) => ({
      pet_id: petId,
      ...(draft.reason.trim() !== '' && { reason: draft.reason.trim() }),
    }));
  }
  // Last, as they come last on the form (the summary lists messages in order).
  Object.assign(errors, dates.messages, missingCustomFields(customFields, draft.custom_field_data));
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request };
}
