import type { KeyboardEvent } from 'react';

/** The open list of a Mantine combobox's input (`aria-controls`), null when none shows. */
export function comboboxList(input: HTMLInputElement): HTMLElement | null {
  const listId = input.getAttribute('aria-controls');
  return listId ? input.ownerDocument.getElementById(listId) : null;
}

/** The rows of a combobox's open list, in order. */
export function comboboxRows(input: HTMLInputElement): HTMLElement[] {
  return [...(comboboxList(input)?.querySelectorAll<HTMLElement>('[data-combobox-option]') ?? [])];
}

/**
 * Highlights the row at `index` of a combobox's open list, as the arrow keys do. Mantine counts the highlighted row
 * apart from the mark it shows, and rows listed anew can leave the two out of step, so that Enter would pick a row
 * other than the one marked. An arrow down puts both on the same row (the one after wherever the count was); arrows
 * up or down from there bring both to the row wanted, and Enter then picks it.
 */
export function highlightRow(input: HTMLInputElement, index: number): void {
  const rows = () => comboboxRows(input);
  const count = rows().length;
  if (index < 0 || index >= count || rows()[index]?.hasAttribute('data-combobox-selected')) return;
  const press = (key: 'ArrowDown' | 'ArrowUp') =>
    input.dispatchEvent(new KeyboardEvent('keydown', { key, code: key, bubbles: true }));
  const marked = () => rows().findIndex((row) => row.hasAttribute('data-combobox-selected'));
  press('ArrowDown');
  // The mark is read again after each press: the list skips rows it cannot pick (disabled ones).
  for (let step = 0; step < count && marked() >= 0 && marked() !== index; step += 1) {
    press(marked() > index ? 'ArrowUp' : 'ArrowDown');
  }
}

/** The option a combobox's list shows highlighted (`data-combobox-selected`), as Mantine marks it. */
function highlightedOption(input: HTMLInputElement): HTMLElement | null {
  return comboboxList(input)?.querySelector<HTMLElement>('[data-combobox-selected]') ?? null;
}

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
  if (!highlightedOption(input)) event.preventDefault();
}

/**
 * For a searchable select inside a form: Enter in its open list picks the option shown highlighted and never submits
 * the form. Mantine picks it itself when its own count of the highlighted row is right; a list rendered again under
 * the typing (a sync reloading the record on show) can lose that count while the row still shows highlighted, and
 * Enter then fell through to the form, which saved the value chosen before (a pet's status the person had just typed
 * over: an e2e caught a pet marked adopted that way). Then the row shown highlighted is picked here, once Mantine has
 * had its turn.
 */
export function enterPicksHighlighted(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  const input = event.currentTarget;
  if (input.getAttribute('aria-expanded') !== 'true') return;
  event.preventDefault();
  const highlighted = highlightedOption(input);
  if (!highlighted) return;
  setTimeout(() => {
    if (highlighted.isConnected && input.getAttribute('aria-expanded') === 'true') highlighted.click();
  });
}
