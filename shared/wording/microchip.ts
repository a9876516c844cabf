/**
 * What the desk says of a microchip number no chip carries, at the pet form's field and after the command line's
 * save: chips read 15 digits (ISO), older ones 9 or 10 characters. Only a note (the number is saved as typed, without
 * spaces and dashes): a chip from abroad may differ, but a short or long one is most often a digit missed or typed
 * twice.
 */
export function microchipNote(value: string): string | undefined {
  const characters = value.replace(/[^0-9A-Za-z]/g, '');
  if (characters === '') return undefined;
  if (/^\d{15}$/.test(characters) || characters.length === 9 || characters.length === 10) return undefined;
  // Digits with a letter that looks like one (O for 0, I or l for 1): a chip number typed by eye, not scanned.
  const lookalike =
    /^[\dOoIl]+$/.test(characters) && /\d/.test(characters) ? characters.match(/[OoIl]/)?.[0] : undefined;
  if (lookalike) {
    const digit = /[Oo]/.test(lookalike) ? '0' : '1';
    return `This number has the letter ${lookalike} where a chip has the digit ${digit}; chips read 15 digits (older ones 9 or 10). Check it against the scanner.`;
  }
  const count =
    characters.length === 15
      ? '15 characters, not all digits'
      : `${characters.length} ${characters.length === 1 ? 'character' : 'characters'}`;
  return `This number has ${count}; chips read 15 digits (older ones 9 or 10). Check it against the scanner.`;
}
