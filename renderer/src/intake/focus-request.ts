import { unlessTypingHeld } from '../components/leave-guard';

const NAME_FIELD = 'form[aria-label="New pet"] [data-field="name"]';
let requested = false;

/**
 * Starts a new intake (Ctrl/Alt+N, the File menu): the intake screen opens with the focus in its Name field, or, when
 * it is the screen shown, that field takes the focus. A form holding typing is asked first. A module of its own: the
 * shortcuts load with every screen, the intake screen only when opened.
 */
export function startIntake(navigate: (to: string) => void, shownPath: string): void {
  if (shownPath === '/intake') {
    document.querySelector<HTMLInputElement>(NAME_FIELD)?.focus();
    return;
  }
  unlessTypingHeld(() => {
    requested = true;
    navigate('/intake');
  });
}

/** Whether the intake screen, opening now, was started by `startIntake` (asked once). */
export function takeIntakeFocusRequest(): boolean {
  const was = requested;
  requested = false;
  return was;
}
