import { z } from 'zod';
import { uuidSchema } from './primitives';

/** Error codes of the API (electron/server/API.md lists when each is used). */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_parameter',
  'invalid_json',
  'api_key_required',
  'invalid_api_key',
  'forbidden',
  'not_found',
  'pet_not_found',
  'person_not_found',
  'method_not_allowed',
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_image',
  'rate_limited',
  'internal_error',
  'storage_full',
  'storage_busy',
  'storage_error',
  // Shelter Desk extensions (pairing a desk over the LAN, the change stream); the hosted service sends none.
  'pairing_code_invalid',
  'pairing_code_expired',
  'pairing_code_used',
  'pairing_code_locked',
  'too_many_streams',
  'https_required',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every API error body. `code` stays a free string so a newer server's codes still parse. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  request_id: uuidSchema,
  details: z.unknown().optional(),
  errors: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  docs: z.string().optional(),
  hint: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
