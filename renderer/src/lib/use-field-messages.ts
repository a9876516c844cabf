import { useState } from 'react';
import type { FieldMessages } from './form-messages';

/**
 * The field messages of a form and how many saves they refused (`refusals`, which `FormErrorSummary` reveals): a
 * refused save shows its messages with `refuse`; a save refused for no field (the desk's own error) counts none.
 */
export function useFieldMessages() {
  const [errors, setErrors] = useState<FieldMessages>({});
  const [refusals, setRefusals] = useState(0);
  function refuse(messages: FieldMessages): void {
    setErrors(messages);
    if (Object.keys(messages).length > 0) setRefusals((count) => count + 1);
  }
  return { errors, setErrors, refusals, refuse };
}
