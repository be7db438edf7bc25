/**
 * Where an empty search points for help, by topic (the spec names website RSS, exchanges, web
 * clips, tags and bookmarks, and general help). One map, so the addresses change in one place.
 */

/** The user guide; a self-hosted install may point this elsewhere by changing this line. */
export const HELP_BASE = 'https://docs.needl.ai/guide';

export type HelpTopic = 'rss_news' | 'exchanges' | 'webclips' | 'tags_bookmarks' | 'general';

export const SEARCH_HELP_LINKS: Record<HelpTopic, { href: string; label: string }> = {
  rss_news: { href: `${HELP_BASE}/sources/websites-and-rss`, label: 'Following websites and RSS feeds' },
  exchanges: { href: `${HELP_BASE}/sources/exchanges`, label: 'What exchange filings Needl covers' },
  webclips: { href: `${HELP_BASE}/sources/web-clips`, label: 'Clipping pages from the web' },
  tags_bookmarks: { href: `${HELP_BASE}/organise/tags-and-bookmarks`, label: 'Tagging and bookmarking items' },
  general: { href: `${HELP_BASE}/search`, label: 'How search works' },
};

const TOPIC_BY_KEY: Record<string, HelpTopic> = {
  rss_news: 'rss_news',
  exchanges: 'exchanges',
  india_regulatory_data: 'exchanges',
  us_regulatory_data: 'exchanges',
  webclips: 'webclips',
  clipped_reports: 'webclips',
  tags: 'tags_bookmarks',
  bookmarks: 'tags_bookmarks',
};

/**
 * Returns the help topic of an empty search from what it was narrowed to, most specific first
 * (the chosen tab's sub-category, the tab, the path's scope); general help otherwise.
 */
export function helpTopicFor(...keys: Array<string | null | undefined>): HelpTopic {
  for (const key of keys) {
    const topic = key ? TOPIC_BY_KEY[key] : undefined;
    if (topic) return topic;
  }
  return 'general';
}
