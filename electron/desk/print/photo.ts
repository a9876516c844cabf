/**
 * Where a card's photo comes from: `loadPhoto(url)` resolves the image bytes, or undefined when there is none to
 * print (offline, too large, not an image). The desk core passes the photo cache's reader; the default fetches with
 * a short deadline and a size bound so a slow or huge photo never holds up a print.
 */
export type LoadPhoto = (url: string) => Promise<Buffer | undefined>;

export const PHOTO_TIMEOUT_MS = 4_000;
export const PHOTO_MAX_BYTES = 8 * 1024 * 1024;

/** The image formats PDFKit can embed, by their first bytes; WebP, GIF and others are not printable. */
export function printableImageKind(bytes: Buffer): 'jpeg' | 'png' | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])))
    return 'png';
  return undefined;
}

/** Fetches a photo over http(s) within `PHOTO_TIMEOUT_MS` and `PHOTO_MAX_BYTES`; undefined on any failure. */
export async function fetchPhoto(
  url: string,
  options: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<Buffer | undefined> {
  const timeoutMs = options.timeoutMs ?? PHOTO_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? PHOTO_MAX_BYTES;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(parsed, { signal: controller.signal, redirect: 'follow' });
    if (!response.ok || !response.body) return undefined;
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body.cancel();
      return undefined;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        controller.abort();
        return undefined;
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** How many of a pet's addresses a card tries, and for how long in all, before it prints a placeholder. */
export const PHOTO_TRIES = 8;
export const PHOTO_BUDGET_MS = 12_000;

/**
 * The first of a pet's photos that loads and can be printed, or undefined (the card shows a placeholder). Addresses
 * are tried in order (the main photo first) until one prints, so a photo kept only on the desk still prints after
 * server photos that are unreachable offline; at most `tries` distinct addresses, and none started after
 * `budgetMs`, so a pet with many dead links cannot hold up a batch.
 */
export async function firstPrintablePhoto(
  urls: readonly string[],
  loadPhoto: LoadPhoto,
  options: { tries?: number; budgetMs?: number; now?: () => number } = {},
): Promise<Buffer | undefined> {
  const tries = options.tries ?? PHOTO_TRIES;
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.budgetMs ?? PHOTO_BUDGET_MS);
  for (const url of [...new Set(urls)].slice(0, tries)) {
    if (now() > deadline) break;
    const bytes = await loadPhoto(url).catch(() => undefined);
    if (bytes && printableImageKind(bytes)) return bytes;
  }
  return undefined;
}
