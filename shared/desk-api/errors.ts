import { z } from 'zod';
import { fieldErrorSchema } from '../contract/errors';
import type { DeskError } from './desk-call-error';

export * from './desk-call-error';

/**
 * Codes of errors that cross the bridge. Feature code may use any string (a server's own code is passed
 * through as-is), these are the ones the bridge itself produces.
 */
export const DESK_ERROR_CODES = [
  'invalid_input',
  'unknown_method',
  'not_found',
  'conflict',
  'unavailable',
  'needs_auth',
  'transport_failed',
  'internal_error',
] as const;
export type DeskErrorCode = (typeof DESK_ERROR_CODES)[number];

/** The shape of a `DeskError`, for the schemas that carry one (a status's last error). */
export const deskErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  requestId: z.string().optional(),
  fieldErrors: z.array(fieldErrorSchema).optional(),
}) satisfies z.ZodType<DeskError>;
