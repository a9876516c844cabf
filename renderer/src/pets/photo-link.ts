/**
 * A photo link as staff paste or type it, made an address: `example.org/rex.jpg` (copied without its start, or typed)
 * becomes `https://example.org/rex.jpg`. Only web addresses are taken.
 */
export function readPhotoLink(text: string): { url: string } | { problem: string } {
  const typed = text.trim();
  const hasScheme = /^[a-z][a-z\d+.-]*:/i.test(typed) && !/^[^/:]+:\d/.test(typed);
  const candidate = hasScheme ? typed : `https://${typed.replace(/^\/+/, '')}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { problem: 'That is not a web address; copy the photo’s link from the site that hosts it.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: 'A photo link starts with https://' };
  // Without a scheme, a word with no dot in it ("rex") is not a site's name.
  if (!hasScheme && !url.hostname.includes('.')) {
    return { problem: 'That is not a web address; copy the photo’s link from the site that hosts it.' };
  }
  return { url: hasScheme ? typed : url.href };
}
