import { ZodError } from 'zod';
import { DeskCallError } from '../../../../shared/desk-api';
import { StaffOperationError } from '../../../server';

/** A refused staff request (unknown record, clashing label, bad value) as the bridge's invalid_input. */
export function staffCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof StaffOperationError) {
      throw new DeskCallError({ code: 'invalid_input', message: error.message });
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new DeskCallError({
        code: 'invalid_input',
        message: `${where}${issue?.message ?? 'invalid value'}`,
      });
    }
    throw error;
  }
}
