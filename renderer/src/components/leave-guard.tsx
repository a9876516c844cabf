import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ConfirmModal } from './confirm-modal';

/** What a form inside a guarded drawer is given: where to report typing, and how to wrap its own Cancel. */
export interface LeaveGuard {
  reportTyped(typed: boolean): void;
  guard(close: () => void): () => void;
}

interface AskingForm {
  /** Shows the form's leave question; `leave` runs on "Leave without saving". */
  ask(leave: () => void): void;
}

/** The guarded forms holding typing now, the newest last. */
const holdingTyping: AskingForm[] = [];
/** Typing kept while its screen is away (a half-typed intake), by name. */
const keptTyping = new Set<string>();

/** Asks before a reload or closing the window throws typing away (the Electron window asks in its own dialog). */
function askBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older Chromium asks only when a return value is set.
  event.returnValue = '';
}

function watchUnload(): void {
  if (holdingTyping.length > 0 || keptTyping.size > 0)
    window.addEventListener('beforeunload', askBeforeUnload);
  else window.removeEventListener('beforeunload', askBeforeUnload);
}

/** Reloads the page without asking about typing: what was typed belongs to records just removed (the demo's). */
export function reloadDiscardingTyping(): void {
  window.removeEventListener('beforeunload', askBeforeUnload);
  window.location.reload();
}

/** Notes whether typing that outlives its screen (`name`: the intake's draft) is there to be lost by a reload. */
export function keepTyping(name: string, typed: boolean): void {
  if (typed) keptTyping.add(name);
  else keptTyping.delete(name);
  watchUnload();
}

/**
 * The form that must be asked before its screen is left (its drawer goes with the screen), or undefined when no form
 * holds typing: see `useGuardedHashLocation`.
 */
export function formHoldingTyping(): AskingForm | undefined {
  return holdingTyping.at(-1);
}

/**
 * Runs `go` (opening another record, which replaces the form's drawer) at once, or, while a form holds typing, once
 * staff answer "Leave without saving" to its question.
 */
export function unlessTypingHeld(go: () => void): void {
  const typing = formHoldingTyping();
  // Each form holding typing is asked in turn (a sign-up and an edit may both be open).
  if (typing) typing.ask(() => unlessTypingHeld(go));
  else go();
}

/**
 * Asks before a form someone typed into is closed (Escape, the close button, a click beside a drawer, Cancel, a move
 * to another screen): at an event one stray key must not throw a sign-up away. `reportTyped` is what the form calls
 * when it holds typing; `guard(close)` wraps a close so that it asks first then; `modal` is the question, rendered
 * beside the form.
 */
export function useLeaveGuard(what: string): LeaveGuard & { modal: ReactNode } {
  const [pending, setPending] = useState<{ close: () => void }>();
  // Read when a close is asked for, not from the last render: a key typed just before Escape counts.
  const typed = useRef(false);
  const [entry] = useState<AskingForm>(() => ({
    // Asked once the Escape that closed the form has gone by: every modal hears Escape on the window, so one
    // opened while that key's event is still on its way would take it as its own and close at once.
    ask: (close: () => void) => setTimeout(() => setPending({ close })),
  }));
  const [reportTyped] = useState(() => (now: boolean) => {
    typed.current = now;
    const at = holdingTyping.indexOf(entry);
    if (now && at < 0) holdingTyping.push(entry);
    if (!now && at >= 0) holdingTyping.splice(at, 1);
    watchUnload();
  });
  useEffect(() => () => reportTyped(false), [reportTyped]);
  return {
    reportTyped,
    guard: (close) => () => {
      if (typed.current) entry.ask(close);
      else close();
    },
    modal: (
      <ConfirmModal
        opened={pending !== undefined}
        title={`Leave ${what} without saving?`}
        confirmLabel="Leave without saving"
        cancelLabel="Keep editing"
        onConfirm={() => {
          reportTyped(false);
          setPending(undefined);
          pending?.close();
        }}
        onCancel={() => setPending(undefined)}
      >
        The changes made here are not saved on this desk yet: leaving throws them away.
      </ConfirmModal>
    ),
  };
}

/**
 * Asks before a screen holding `unsaved` changes (a settings editor, saved by its own button) is left or the window
 * reloaded: returns the question, to render beside the editor.
 */
export function useUnsavedGuard(what: string, unsaved: boolean): ReactNode {
  const { reportTyped, modal } = useLeaveGuard(what);
  useEffect(() => reportTyped(unsaved), [unsaved, reportTyped]);
  return modal;
}

/** Tells `onTypedChange` whether `value` differs from what it was at first (compared as JSON). */
export function useTypedSince<T>(
  value: T,
  onTypedChange: ((typed: boolean) => void) | undefined,
  /** What counts as nothing typed, when the form did not open empty (typing kept through a reload). */
  untyped: T = value,
): void {
  const first = useRef(JSON.stringify(untyped));
  const typed = JSON.stringify(value) !== first.current;
  useEffect(() => {
    onTypedChange?.(typed);
  }, [typed, onTypedChange]);
  useEffect(() => () => onTypedChange?.(false), [onTypedChange]);
}
