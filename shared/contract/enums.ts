import { z } from 'zod';
import {
  AGE_CATEGORIES,
  COMPATIBILITY_VALUES,
  CONTRACT_TYPES,
  HEALTH_VALUES,
  KNOWN_PET_STATUSES,
  PERSON_CREATE_STATUSES,
  PERSON_CREATE_TYPES,
  PERSON_STATUSES,
  PERSON_TYPES,
  SEXES,
  SIZES,
  SPECIES,
  TEMPERAMENTS,
} from './enum-values';

export * from './enum-values';

export const speciesSchema = z.enum(SPECIES);
export const ageCategorySchema = z.enum(AGE_CATEGORIES);
export const sexSchema = z.enum(SEXES);
export const sizeSchema = z.enum(SIZES);
export const healthSchema = z.enum(HEALTH_VALUES);
export const knownPetStatusSchema = z.enum(KNOWN_PET_STATUSES);
export const compatibilitySchema = z.enum(COMPATIBILITY_VALUES);
export const temperamentSchema = z.enum(TEMPERAMENTS);
export const personTypeSchema = z.enum(PERSON_TYPES);
export const personCreateTypeSchema = z.enum(PERSON_CREATE_TYPES);
export const personStatusSchema = z.enum(PERSON_STATUSES);
export const personCreateStatusSchema = z.enum(PERSON_CREATE_STATUSES);
export const contractTypeSchema = z.enum(CONTRACT_TYPES);

export type Species = z.infer<typeof speciesSchema>;
export type AgeCategory = z.infer<typeof ageCategorySchema>;
export type Sex = z.infer<typeof sexSchema>;
export type Size = z.infer<typeof sizeSchema>;
export type Health = z.infer<typeof healthSchema>;
export type KnownPetStatus = z.infer<typeof knownPetStatusSchema>;
export type Compatibility = z.infer<typeof compatibilitySchema>;
export type Temperament = z.infer<typeof temperamentSchema>;
export type PersonType = z.infer<typeof personTypeSchema>;
export type PersonCreateType = z.infer<typeof personCreateTypeSchema>;
export type PersonStatus = z.infer<typeof personStatusSchema>;
export type ContractType = z.infer<typeof contractTypeSchema>;

/** Case-insensitive match of a status label against the known pet statuses; returns the canonical spelling. */
export function matchKnownPetStatus(label: string): KnownPetStatus | undefined {
  const wanted = label.trim().toLowerCase();
  return KNOWN_PET_STATUSES.find((status) => status.toLowerCase() === wanted);
}
