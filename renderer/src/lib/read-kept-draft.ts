const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sameShape(model: unknown, value: unknown): boolean {
  if (Array.isArray(model)) return Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (isPlainObject(model)) return isPlainObject(value);
  return typeof value === typeof model;
}

/**
 * A kept draft read onto a form's empty state: each field the empty state has, when the kept one holds the same kind
 * of value (text, yes/no, a list of text, an object); the rest stay empty. Undefined when nothing kept fits.
 */
export function readKeptDraft<T extends object>(empty: T, kept: unknown): T | undefined {
  if (!isPlainObject(kept)) return undefined;
  const draft: Record<string, unknown> = { ...(empty as Record<string, unknown>) };
  let fitted = 0;
  for (const [key, model] of Object.entries(empty)) {
    if (!Object.hasOwn(kept, key) || !sameShape(model, kept[key])) continue;
    draft[key] = kept[key];
    fitted += 1;
  }
  return fitted > 0 ? (draft as T) : undefined;
}
