/**
 * Addresses that come from outside the app (a host app's message, a `redirect=` parameter, a
 * link into a full-page viewer) are checked here before the app goes to them or fetches them.
 */
import { documentKeysOf, type DocumentAddress } from './document-links';

/** Returns the origin the app runs at (the page's own). */
const ownOrigin = (): string => window.location.origin;

/**
 * Returns `value` as an address of one of the app's pages (`/feeds/home?x=1#y`), or null when it
 * is not one: not a string, not a path (`https://…`, `//host/…`, `javascript:…`), or under /api,
 * which is the server's and no page.
 */
export function sameAppPath(value: unknown, origin = ownOrigin()): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === '/api' || url.pathname.startsWith('/api/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Returns `value` as an address on the app's own origin (a path, or a full address of this
 * origin), or null for anything else: another site, `data:`, `blob:` or `javascript:`. Nothing
 * of another origin is ever fetched or shown from a link into the app.
 */
export function sameOriginUrl(value: string | null, origin = ownOrigin()): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value, origin);
    return url.origin === origin && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
  } catch {
    return null;
  }
}

/** `/api/doc/{source}` or `/api/doc/{source}/file`: the server's document and its original file. */
const DOC_FILE_PATH = /^\/api\/doc\/([^/]+)(?:\/file)?$/;
/** `/preview/{category}/{deeplink}`: the app's own preview. */
const PREVIEW_PATH = /^\/preview\/([^/]+)\/([^/]+)$/;

/**
 * Returns the document an address of the app's own names: its document file
 * (`/api/doc/{source}/file?deeplink=…`) or its preview (`/preview/{category}/{deeplink}?source=…`),
 * with the keys it carries; null for any other address.
 */
export function documentAtUrl(url: URL): DocumentAddress | null {
  const file = DOC_FILE_PATH.exec(url.pathname);
  const fileDeeplink = url.searchParams.get('deeplink');
  if (file && fileDeeplink && file[1] !== 'read_status') {
    return { deeplink: fileDeeplink, source: decodeURIComponent(file[1]), ...documentKeysOf(url.searchParams) };
  }
  const preview = PREVIEW_PATH.exec(url.pathname);
  const source = url.searchParams.get('source');
  if (preview && source) {
    return {
      deeplink: decodeURIComponent(preview[2]),
      source,
      category: decodeURIComponent(preview[1]),
      ...documentKeysOf(url.searchParams),
    };
  }
  return null;
}
