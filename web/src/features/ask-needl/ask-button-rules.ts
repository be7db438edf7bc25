/**
 * Where the floating Ask button shows, per the spec: hidden on settings, notebooks, the assistant
 * manager, dashboards, the full-page report, needlbox and the full-screen pages (and while the
 * copilot flag is loading or off); disabled on bookmarks, clipped reports, tags, comments,
 * assistants, app sources and the connect pages. While the assistant overlay is open the button
 * stays, enabled, to close it again (it is a toggle). Unlike the spec it shows on phones too
 * (issue 18: the assistant must be in reach there), where it opens the full page.
 */

export type AskButtonState = 'hidden' | 'disabled' | 'enabled';

const HIDDEN_PREFIXES = ['/settings', '/notebooks', '/managers', '/report', '/dashboard', '/ask-needl', '/search/full', '/preview/needl_notebooks'];
const DISABLED_SEGMENTS = new Set(['bookmarks', 'clipped_reports', 'tags', 'comments', 'assistants']);
const DISABLED_PREFIXES = ['/apps', '/connect'];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

export interface AskButtonContext {
  pathname: string;
  /** The ask_needl_copilot flag: undefined while loading. */
  copilot: boolean | undefined;
  /** Whether the assistant overlay is open: the button then closes it. */
  overlayOpen: boolean;
}

export function askButtonState({ pathname, copilot, overlayOpen }: AskButtonContext): AskButtonState {
  if (!copilot) return 'hidden';
  if (HIDDEN_PREFIXES.some((prefix) => under(pathname, prefix))) return 'hidden';
  // Closing is always allowed, also where asking is not.
  if (overlayOpen) return under(pathname, '/needlbox') ? 'hidden' : 'enabled';
  const segments = pathname.split('/').filter(Boolean);
  if (segments.some((segment) => DISABLED_SEGMENTS.has(segment))) return 'disabled';
  if (under(pathname, '/needlbox')) return 'hidden';
  if (DISABLED_PREFIXES.some((prefix) => under(pathname, prefix))) return 'disabled';
  return 'enabled';
}
