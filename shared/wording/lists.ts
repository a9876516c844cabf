/** Items as a sentence lists them: "Chester", "Chester and Sunny", "Chester, Sunny and Rex"; none: "". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
