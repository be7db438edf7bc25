/** Copying text to the clipboard, with a fallback for browsers without the async Clipboard API. */

/**
 * Copies `text`: through `navigator.clipboard` where the page may use it, else through a hidden
 * text area and the older copy command (plain-HTTP hosts, older browsers). Focus goes back to
 * where it was. Rejects when neither way worked.
 */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) return await navigator.clipboard.writeText(text);
  } catch {
    // Refused (no focus, no permission): the older way may still work.
  }
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.focus({ preventScroll: true });
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } finally {
    area.remove();
    focused?.focus();
  }
  if (!copied) throw new Error('the browser refused to copy');
}
