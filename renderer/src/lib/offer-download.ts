/**
 * Offers a file made by the core as a download: a Blob link clicked in code. Browser mode saves it in the browser's
 * downloads; the desktop window shows the system's save dialog for the same download. Nothing is sent anywhere.
 */
export function offerDownload(fileName: string, contents: Blob): void {
  const url = URL.createObjectURL(contents);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy by the time the click returns; revoke a little later for slow browsers.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
