/** Saving what the app made or fetched as a file in the browser's downloads. */

/** Saves a blob under `fileName` through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by then; the URL only holds memory.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
