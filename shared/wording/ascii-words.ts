/**
 * A text as plain ASCII words joined by `separator`: lower case, accents dropped, every run of anything else one
 * separator ("Favourite café spot!" gives `favourite-cafe-spot` with "-"). Letters of other scripts are dropped too,
 * so the result may be empty.
 */
export function asciiWords(text: string, separator: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .split(separator)
    .filter(Boolean)
    .join(separator);
}
