/**
 * Showing a PDF the app fetched (with the user's token, so not a plain link) in a new tab. The tab
 * is opened while the click still counts as the user's, since one opened after the fetch would be
 * blocked, and given the file when it has come; a blocked tab gets the file downloaded instead.
 */
import { saveBlob } from '../../lib/save-blob';

/** How long a shown file's address lives: the tab has read it long before. */
const KEEP_URL_MS = 60_000;

/** Returns a new blank tab that holds no reference to this one, or null when the browser blocked it. */
export function openBlankTab(): Window | null {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  return tab ?? null;
}

/** Shows `blob` as a PDF in `tab`, or saves it as `fileName` when there is no tab to show it in. */
export function showPdf(blob: Blob, tab: Window | null, fileName: string): void {
  if (!tab || tab.closed) {
    saveBlob(blob, fileName);
    return;
  }
  // Typed again, so the address is only ever read as a PDF, whatever the answer said it was.
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  tab.location.href = url;
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}
