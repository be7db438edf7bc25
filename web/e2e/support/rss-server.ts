import { serveLocally } from './local-server';

export interface FeedItem {
  title: string;
  summary: string;
}

export interface RssServer {
  /** The feed's address, on 127.0.0.1 and a port the system picked. */
  url: string;
  /** The site's home page, which names the feed with `<link rel="alternate">`. */
  siteUrl: string;
  /** How many times the feed was fetched. */
  hits: () => number;
  /** Replaces the items the feed serves from now on. */
  setItems: (items: FeedItem[]) => void;
  close: () => Promise<void>;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Returns an RSS 2.0 document with `items`, newest first, each an hour older than the one before. */
export function rssDocument(base: string, items: FeedItem[], now = Date.now()): string {
  const entries = items
    .map(
      (item, i) => `
    <item>
      <title>${escape(item.title)}</title>
      <link>${base}/items/${i + 1}</link>
      <guid isPermaLink="false">${escape(item.title)}</guid>
      <pubDate>${new Date(now - i * 3_600_000).toUTCString()}</pubDate>
      <description>${escape(item.summary)}</description>
    </item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>E2E Feed</title>
    <link>${base}/</link>
    <description>Items written by the end-to-end test</description>${entries}
  </channel>
</rss>
`;
}

/** Returns a home page that announces the feed the way sites do, for following a website. */
export function sitePage(base: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>E2E Site</title>
    <link rel="alternate" type="application/rss+xml" title="E2E Feed" href="${base}/feed.xml">
  </head>
  <body><h1>E2E Site</h1><p>News written by the end-to-end test.</p></body>
</html>
`;
}

/**
 * Serves `items` as an RSS feed at /feed.xml on 127.0.0.1, port 0, and at / a home page that
 * links to it.
 */
export async function startRssServer(items: FeedItem[]): Promise<RssServer> {
  let hits = 0;
  let body = '';
  const local = await serveLocally((request, response) => {
    if (request.url?.startsWith('/feed.xml')) {
      hits += 1;
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      response.end(body);
      return;
    }
    if (request.url === '/' || request.url === '/index.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(sitePage(local.base));
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  const { base } = local;
  body = rssDocument(base, items);
  return {
    url: `${base}/feed.xml`,
    siteUrl: `${base}/`,
    hits: () => hits,
    setItems: (next) => {
      body = rssDocument(base, next);
    },
    close: local.close,
  };
}
