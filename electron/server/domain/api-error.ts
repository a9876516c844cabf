import type { ErrorCode, FieldError } from '../../../shared/contract';
import { describeFieldErrors } from '../../../shared/contract';

export interface ApiErrorExtras {
  errors?: FieldError[];
  details?: unknown;
  hint?: string;
  headers?: Record<string, string>;
  /** What the write wrote before it refused is committed all the same (a wrong try that is counted). */
  commitWrites?: boolean;
}

/** An error with the HTTP status and error code the client sees; anything else thrown becomes a 500. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extras: ApiErrorExtras = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A 400 `validation_failed` whose message names every offending field. */
export function validationError(errors: FieldError[], hint?: string): ApiError {
  return new ApiError(400, 'validation_failed', describeFieldErrors(errors), { errors, hint });
}

/** A 400 `invalid_parameter` for query or path values. */
export function parameterError(errors: FieldError[]): ApiError {
  return new ApiError(400, 'invalid_parameter', describeFieldErrors(errors), { errors });
}
