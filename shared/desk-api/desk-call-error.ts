import type { FieldError } from '../contract';

/**
 * The serialisable error shape every transport carries (IPC, HTTP). `message` is written for a volunteer
 * and may be shown as-is; `requestId` is the API server's request id when the failure came from it.
 * Free of imports that run: the renderer's first frame needs it without the schemas (errors.ts checks the shape).
 */
export interface DeskError {
  code: string;
  message: string;
  requestId?: string | undefined;
  fieldErrors?: FieldError[] | undefined;
}

/** What a transport returns for one call: never a thrown error, so nothing is lost on the way. */
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
