/** Date-times inside the desk's sentences (always upcoming retries), as people read them: "in 2 minutes". */
export function readableTimes(text: string): string {
  return text.replace(/(?:at )?(\d{4}-\d{2}-\d{2}T[\d:.]+Z)/g, (_match, iso: string) => nextTry(iso));
}

/** "in 40 seconds" / "in a moment": describeWhen speaks of the past. */
export function nextTry(iso: string): string {
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (seconds <= 5) return 'in a moment';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  return seconds < 90 ? format.format(seconds, 'second') : format.format(Math.round(seconds / 60), 'minute');
}
