/**
 * An import's sentence (a rejection's reason, the summary) as the screens write text: quoted values in curly quotes
 * and apostrophes curled. The import words them for the command line too, which prints them as they are (straight
 * quotes read better in a terminal). What is quoted is the file's own text and keeps its apostrophes; a sentence
 * whose quoted value holds a double quote of its own would pair wrongly, so it is left as it is.
 */
export function textForScreen(sentence: string): string {
  const parts = sentence.split(/("[^"]*")/);
  if ((sentence.match(/"/g)?.length ?? 0) % 2 !== 0) return sentence;
  return parts
    .map((part, index) =>
      index % 2 === 1 ? `“${part.slice(1, -1)}”` : part.replace(/([\p{L})])'(\p{L})/gu, '$1’$2'),
    )
    .join('');
}
