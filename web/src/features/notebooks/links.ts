/** Which addresses a note may link to, kept apart from the editor so cards can check links without loading it. */

/** The origin app paths are resolved against: the page's own. */
const appOrigin = (): string => window.location.origin;

/**
 * Returns the path of this app `href` leads to, read the way the browser reads it (`\` as `/`,
 * tabs and newlines dropped), or null when it is not one: it must start with a single `/` and
 * stay on the app's origin, so `/\evil.example` (opened as `//evil.example`) is not.
 */
export const appPath = (href: string, origin: string = appOrigin()): string | null => {
  if (!href.startsWith('/') || href.startsWith('//') || href.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
};

/** Returns whether a link may point there: http(s), mail, or a path of this app. */
export const isSafeHref = (href: string): boolean =>
  /^(https?:\/\/|mailto:)/i.test(href.trim()) || appPath(href) !== null;

/** Returns the address a typed link goes to: "example.com" is taken as https. */
export const normaliseHref = (typed: string): string => {
  const href = typed.trim();
  if (!href || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  return `https://${href}`;
};
