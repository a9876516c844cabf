import type { KeyboardEvent } from 'react';

/**
 * For a searchable multi-select inside a form: Enter on typed words picks the option the list has highlighted (the
 * picker's own handling, which runs after this), and with none highlighted does nothing. Without this, words that
 * matched no option yet (or a list still searching) let Enter fall through to the form, which saved it half filled.
 * The highlighted option is read from the list itself (`data-combobox-selected`), as the picker reads it.
 */
export function enterPicksOrWaits(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  const input = event.currentTarget;
  if (input.value.trim() === '') return;
  const listId = input.getAttribute('aria-controls');
  const highlighted = listId
    ? input.ownerDocument.getElementById(listId)?.querySelector('[data-combobox-selected]')
    : null;
  if (!highlighted) event.preventDefault();
}
