/** Where a document's actions show (spec §6, visibility rules), from what a card or the preview knows. */
import type { DocumentCard, DocumentKeys } from './api/document-api';
import { isWebsiteOrRss } from './document-display';

/**
 * Source keys of connected apps: mail (`email`) and a WebDAV drive (`webdav`), the ones connected
 * here, and the apps the catalogue names. Their documents mirror another service's, which stays
 * where they are deleted.
 */
export const APP_SOURCES: ReadonlySet<string> = new Set([
  'email',
  'webdav',
  'gmail',
  'outlook',
  'whatsapp',
  'telegram',
  'slack',
  'teams',
  'googledrive',
  'onedrive',
  'twitter',
  'linkedin',
]);

/** My Data's sub-categories whose documents are the sources', never the user's to delete. */
export const NO_DELETE_SUB_CATEGORIES: ReadonlySet<string> = new Set(['rss_news', 'exchanges']);

export interface DeleteContext {
  /** The preview's category: `channels` is a group's shared data. */
  category?: string;
  /** The keys the document was opened with: a shared link's makes it shared data. */
  keys?: DocumentKeys;
  /** A phone-sized screen. */
  mobile: boolean;
}

/**
 * Returns whether Delete may show for a document (it also needs the user to own an uploaded file):
 * not on shared data (a group's, a shared link's), not for website, RSS or connected app sources,
 * and not on a phone. The views that hide it for all their documents (tags, bookmarks, the
 * rss_news and exchanges tabs) turn the `delete` flag off; Needl Web results are not shown with
 * these actions.
 */
export function mayDelete(doc: Pick<DocumentCard, 'source'>, { category, keys, mobile }: DeleteContext): boolean {
  if (mobile) return false;
  if (category === 'channels' || keys?.public_access_key) return false;
  return !isWebsiteOrRss(doc) && !APP_SOURCES.has(doc.source);
}
