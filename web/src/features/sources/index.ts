/**
 * Sources feature: connecting sources (/connect), the followed RSS feeds (/connect/rss) with
 * their priority, bulk priority (1 to 50 at a time) and unfollow, feeds suggested by topic
 * (/connect/rssTopics) to follow with one click, the instance's public source catalogue
 * (/connect/public: search, filter, follow one or several at once), and followed websites
 * (/connect/website to follow one, /connect/website/followed to see and unfollow them), and US
 * companies' SEC EDGAR filings (/connect/edgar: search a company, narrow by form, follow, check
 * now, unfollow). It owns the calls under /connect, /source and /rss; the source query keys live in src/lib/queries
 * (the live socket invalidates them too). Toasts are declared in mutation `meta` and shown by the app.
 * Depends on: src/lib, src/components/ui.
 */
export { ConnectPage } from './components/connect-page';
export { ConnectRssPage } from './components/connect-rss-page';
export { RssTopicsPage } from './components/rss-topics-page';
export { CataloguePage } from './components/catalogue-page';
export { ConnectWebsitePage } from './components/connect-website-page';
export { FollowedWebsitesPage } from './components/followed-websites-page';
export { EdgarPage } from './components/edgar-page';
