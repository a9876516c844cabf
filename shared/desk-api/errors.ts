import { z } from 'zod';
import { fieldErrorSchema } from '../contract';

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

/**
 * The serialisable error shape every transport carries (IPC, HTTP). `message` is written for a volunteer
 * and may be shown as-is; `requestId` is the API server's request id when the failure came from it.
 */
export const deskErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  requestId: z.string().optional(),
  fieldErrors: z.array(fieldErrorSchema).optional(),
});
export type DeskError = z.infer<typeof deskErrorSchema>;

/** What a transport returns for one call: never a thrown error, so nothing is lost on the way. */
export const deskResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: deskErrorSchema }),
]);
export type DeskResult<T = unknown> = { ok: true; value: T } | { ok: false; error: DeskError };

/**
 * The error a handler throws to fail with a chosen code and message, and the error `DeskApi.call`
 * rejects with in the renderer. Carries the whole `DeskError` shape.
 */
export class DeskCallError extends Error implements DeskError {
  readonly code: string;
  readonly requestId?: string;
  readonly fieldErrors?: DeskError['fieldErrors'];

  constructor(error: DeskError) {
    super(error.message);
    this.name = 'DeskCallError';
    this.code = error.code;
    if (error.requestId !== undefined) this.requestId = error.requestId;
    if (error.fieldErrors !== undefined) this.fieldErrors = error.fieldErrors;
  }

  /** The plain shape, for a transport. */
  toDeskError(): DeskError {
    return {
      code: this.code,
      message: this.message,
      ...(this.requestId !== undefined && { requestId: this.requestId }),
      ...(this.fieldErrors !== undefined && { fieldErrors: this.fieldErrors }),
    };
  }
}
