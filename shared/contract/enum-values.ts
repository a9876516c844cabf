/**
 * Every fixed list of the API contract (electron/server/API.md), in one place. Nothing else restates these values.
 * Free of imports: the renderer's first frame uses them without loading the schemas (enums.ts builds those).
 */

export const SPECIES = ['dog', 'cat', 'rabbit'] as const;
export const AGE_CATEGORIES = ['youngest', 'young', 'adult', 'senior'] as const;
export const SEXES = ['male', 'female', 'unknown'] as const;
export const SIZES = ['xSmall', 'small', 'medium', 'large', 'xLarge'] as const;
export const HEALTH_VALUES = ['unknown', 'poor', 'good', 'great'] as const;

export const KNOWN_PET_STATUSES = [
  'adopted',
  'archived',
  'available',
  'deceased',
  'escaped',
  'euthanized',
  'fostered',
  'hold',
  'intake',
  'lost',
  'medicalHold',
  'medicalTreatment',
  'other',
  'pending',
  'quarantine',
  'recoveryPeriod',
  'returnedToOwner',
  'stray',
  'surrendered',
  'transferred',
] as const;

export const COMPATIBILITY_VALUES = [
  'activeLifestyle',
  'cats',
  'disabledMental',
  'disabledPhysical',
  'dogs',
  'families',
  'firstTimeOwners',
  'frequentTravelers',
  'kids',
  'otherPets',
  'outdoorsLiving',
  'sedentaryLifestyle',
  'seniors',
  'smallApartments',
] as const;

export const TEMPERAMENTS = [
  'affectionate',
  'aggressive',
  'cuddly',
  'curious',
  'docile',
  'energetic',
  'fearful',
  'gentle',
  'independent',
  'loyal',
  'mischievous',
  'moody',
  'playful',
  'protective',
  'quiet',
  'rough',
  'shy',
  'smart',
  'social',
  'stubborn',
  'vocal',
] as const;

/** The two person types of the formal contract (lists, fetch, custom fields). */
export const PERSON_TYPES = ['adopter', 'foster'] as const;
/** Person types the create endpoint accepts (the service's client library adds surrender and volunteer). */
export const PERSON_CREATE_TYPES = ['adopter', 'foster', 'surrender', 'volunteer'] as const;
export const PERSON_STATUSES = [
  'pending',
  'active',
  'training',
  'inactive',
  'denied',
  'suspended',
  'blocked',
] as const;
/** Statuses a create request may set; the others are staff decisions made in the app, not through the API. */
export const PERSON_CREATE_STATUSES = ['pending', 'active', 'training', 'inactive'] as const;
/** What the shelter's staff may make a person as they deny the person's application (else it stays as it is). */
export const DENIED_PERSON_STATUSES = ['inactive', 'denied'] as const;
export const CONTRACT_TYPES = ['adopter', 'foster', 'volunteer', 'surrender'] as const;
