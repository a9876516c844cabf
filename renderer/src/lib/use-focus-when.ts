import { type RefObject, useEffect, useRef } from 'react';

/**
 * A ref whose element takes the focus when `when` becomes truthy or changes to another truthy value (a new record's
 * id): the element that carries on after an action whose own control went away (a form closed by its Save, a panel
 * that appears with what must be done next).
 */
export function useFocusWhen<T extends HTMLElement = HTMLButtonElement>(when: unknown): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
