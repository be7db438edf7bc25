/** Breadcrumbs and page titles derived from the path. */
import { titleFromSourceKey } from './format';

export interface Crumb {
  label: string;
  /** Where the crumb links; absent for the last crumb, which is the current page. */
  to?: string;
}

const SEGMENT_LABELS: Record<string, string> = {
  channels: 'Groups',
  members: 'Members',
  feeds: 'Feeds',
  'manage-tags': 'Tags Manager',
  'user-settings': 'User Settings',
  needlbox: 'Needlbox',
  'ask-needl': 'AskNeedl',
  rss: 'RSS',
  rssTopics: 'Suggested feeds',
  public: 'Public sources',
  // The `home` source is My Data.
  home: 'My Data',
  needldrive: 'Needl Drive',
  ask_needl: 'AskNeedl attachments',
  googledrive: 'Google Drive',
  onedrive: 'OneDrive',
  whatsapp: 'WhatsApp',
  linkedin: 'LinkedIn',
  twitter: 'X (Twitter)',
  clipped_reports: 'Web clipper',
  website: 'Websites',
  followed: 'Followed',
  edgar: 'SEC filings',
  audit: 'Audit log',
};

/** Segments that are part of the path but get no crumb of their own. */
const SKIPPED_SEGMENTS = new Set(['settings']);

/** Names for segments that are ids (a group's id names the group), keyed by the decoded segment. */
export type SegmentLabels = Readonly<Record<string, string>>;

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const labelFor = (segment: string, labels: SegmentLabels = {}) =>
  labels[decoded(segment)] ?? SEGMENT_LABELS[segment] ?? titleFromSourceKey(decoded(segment).replace(/-/g, ' '));

/** Returns the crumbs for `pathname`: Home first, then one per segment; the last has no link. */
export function buildBreadcrumbs(pathname: string, labels: SegmentLabels = {}): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [{ label: 'Home', to: '/' }];
  segments.forEach((segment, index) => {
    if (SKIPPED_SEGMENTS.has(segment)) return;
    crumbs.push({ label: labelFor(segment, labels), to: `/${segments.slice(0, index + 1).join('/')}` });
  });
  const last = crumbs[crumbs.length - 1];
  crumbs[crumbs.length - 1] = { label: last.label };
  return crumbs;
}

const TITLES: Array<[RegExp, string]> = [
  [/^\/notifications/, 'Notifications'],
  [/^\/search/, 'Search'],
  [/^\/ask-needl/, 'AskNeedl'],
  [/^\/managers\/report/, 'Research reports'],
  [/^\/report(\/|$)/, 'Report'],
  [/^\/feeds\/home/, 'My Data'],
  [/^\/preview\//, 'Preview'],
  [/^\/settings\/user-settings/, 'User Settings'],
  [/^\/settings\/storage/, 'Storage'],
  [/^\/settings\/users/, 'Users'],
  [/^\/settings\/outbox/, 'Outbox'],
  [/^\/apps\/needldrive/, 'Needl Drive'],
  [/^\/needlbox\/needldrive/, 'Needl Drive'],
  [/^\/needlbox\/bookmarks/, 'Bookmarks'],
  [/^\/needlbox\/tags/, 'Tags'],
  [/^\/needlbox\/comments/, 'Comments'],
  [/^\/settings\/channels\/?$/, 'Group Settings'],
  [/^\/settings\/channels\/[^/]+\/members$/, 'Members'],
  [/^\/settings\/channels\/[^/]+\/feeds$/, 'Feeds'],
  [/^\/connect\/rssTopics/, 'Suggested feeds'],
  [/^\/connect\/public/, 'Public sources'],
  [/^\/connect\/edgar/, 'SEC filings'],
  [/^\/connect\/website\/followed/, 'Followed websites'],
  [/^\/connect\/website/, 'Follow a website'],
  [/^\/settings\/manage-tags/, 'Tags Manager'],
  [/^\/settings\/audit\/history/, 'History'],
  [/^\/settings\/audit/, 'Audit log'],
  [/^\/settings\/contacts/, 'Manage Contacts'],
  [/^\/settings/, 'Settings'],
];

/**
 * Returns the header title for a path: the label of its last segment when `labels` names it (a
 * group's id), else a fixed title; other pages are titled after their last segment.
 */
export function pageTitle(pathname: string, labels: SegmentLabels = {}): string {
  const segments = pathname.split('/').filter(Boolean);
  const last = segments.length ? decoded(segments[segments.length - 1]) : '';
  // A page named after an id (a group's) takes that name.
  if (labels[last]) return labels[last];
  const match = TITLES.find(([pattern]) => pattern.test(pathname));
  if (match) return match[1];
  return segments.length ? labelFor(segments[segments.length - 1], labels) : 'Home';
}
