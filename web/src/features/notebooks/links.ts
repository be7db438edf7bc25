/** Which addresses a note may link to, kept apart from the editor so cards can check links without loading it. */

/** Returns whether a link may point there: http(s), mail, or a path of this app. */
export const isSafeHref = (href: string): boolean =>
  /^(https?:\/\/|mailto:)/i.test(href.trim()) || (href.startsWith('/') && !href.startsWith('//'));

/** Returns the address a typed link goes to: "example.com" is taken as https. */
export const normaliseHref = (typed: string): string => {
  const href = typed.trim();
  if (!href || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  return `https://${href}`;
};
