const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * RFC 9110 `If-None-Match` evaluation for GET: `*` matches any current representation; otherwise a
 * comma-separated list of entity tags compared weakly (the `W/` prefix is ignored on both sides).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const current = opaque(etag);
  const tags = trimmed.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => opaque(tag) === current);
}
