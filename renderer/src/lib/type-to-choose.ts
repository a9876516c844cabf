import { type KeyboardEvent, useRef } from 'react';
import type { Option } from './words';

/** Letters typed within this long of each other make one word, as in the browser's own select. */
const TYPING_PAUSE_MS = 800;

/**
 * The option that letters typed on a closed list choose, the way a native select does: the first option whose label
 * starts with the word typed; one letter typed again and again steps through the options starting with it. Undefined
 * when no option matches (the choice stays).
 */
export function optionByTyping(
  options: readonly Option[],
  current: string | null,
  typed: string,
): string | undefined {
  const word = typed.toLocaleLowerCase();
  const startsWith = (prefix: string) => (option: Option) =>
    option.label.toLocaleLowerCase().startsWith(prefix);
  const first = word[0];
  if (first === undefined) return undefined;
  if ([...word].every((letter) => letter === first)) {
    const exact = word.length > 1 ? options.find(startsWith(word)) : undefined;
    if (exact) return exact.value;
    const matching = options.filter(startsWith(first));
    if (matching.length === 0) return undefined;
    const at = matching.findIndex((option) => option.value === current);
    // The first press chooses the first match (or the one after the current choice); each press the next one.
    return matching[(at + 1) % matching.length]?.value;
  }
  return options.find(startsWith(word))?.value;
}

/**
 * A key handler for a closed select that cannot be typed in (Mantine's Select without `searchable`): letters choose
 * an option as in a native select, so an intake can be filled from the keyboard without opening each list.
 */
export function useTypeToChoose(
  options: readonly Option[],
  /** The option chosen now (or a way to read the one highlighted as the key comes). */
  current: string | null | (() => string | null),
  choose: (value: string, event: KeyboardEvent<HTMLInputElement>) => void,
  /** Letters that start no option: a closed list opens on them, so staff see what it offers. */
  onNoMatch?: (event: KeyboardEvent<HTMLInputElement>) => void,
): (event: KeyboardEvent<HTMLInputElement>) => void {
  const typed = useRef({ word: '', at: 0 });
  return (event) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.nativeEvent.isComposing) return;
    // Space opens and closes Mantine's list, so it is never part of a word typed here.
    if (event.key === ' ') return;
    const now = event.timeStamp;
    const word = (now - typed.current.at > TYPING_PAUSE_MS ? '' : typed.current.word) + event.key;
    typed.current = { word, at: now };
    const chosen = typeof current === 'function' ? current() : current;
    const next = optionByTyping(options, chosen, word);
    if (next === undefined) {
      onNoMatch?.(event);
      return;
    }
    event.preventDefault();
    if (next !== chosen) choose(next, event);
  };
}
