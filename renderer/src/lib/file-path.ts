/**
 * A file path as people paste it: without the quotes around it that Windows' "Copy as path" and many file managers
 * add (a path with a space comes quoted), and without spaces around it.
 */
export function typedFilePath(typed: string): string {
  const trimmed = typed.trim();
  const quoted = /^(["'])(.*)\1$/s.exec(trimmed);
  return (quoted ? (quoted[2] ?? '') : trimmed).trim();
}
