import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { Spinner } from '../../../components/ui/spinner';
import { NO_DELETE_SUB_CATEGORIES } from '../action-rules';
import { documentQueries, type DocumentListing } from '../api/document-api';
import { useDocumentFlags } from '../hooks/use-document-flags';
import { useInfiniteSentinel } from '../hooks/use-infinite-sentinel';
import { useIsRead, useToggleRead } from '../hooks/use-read-state';
import { useSourceLabels } from '../hooks/use-source-labels';
import { DocumentCard } from './document-card';
import { DocumentSkeleton } from './document-skeleton';

export interface DocumentListProps {
  /** One source's documents, or every followed source's for `null`. */
  source: string | null;
  /** Only one of My Data's sub-categories (`rss_news`, `drives`, ...). */
  subCategory?: string | null;
  /** The preview's category for the cards (`feeds` by default). */
  category?: string;
  /** What an empty list shows instead of the hint to follow a feed. */
  empty?: ReactNode;
  /** Another feature's list (the bookmarks, a tag's documents) instead of a source's. */
  listing?: DocumentListing;
  /** Hides Delete on the cards (the tags and bookmarks views). */
  hideDelete?: boolean;
}

/**
 * The documents of one source (or all, or a sub-category's, or another feature's listing), newest
 * first, loading more as you scroll.
 */
export function DocumentList({ source, subCategory = null, category, empty, listing, hideDelete = false }: DocumentListProps) {
  const docs = useInfiniteQuery(listing ? documentQueries.listing(listing) : documentQueries.list(source, subCategory));
  const userFlags = useDocumentFlags();
  // Delete never shows on these views (spec §6): the tags and bookmarks views say so, and My Data's
  // website and RSS and exchanges tabs hold only their sources' documents.
  const noDelete = hideDelete || (subCategory !== null && NO_DELETE_SUB_CATEGORIES.has(subCategory));
  const flags = noDelete ? { ...userFlags, delete: false } : userFlags;
  const isRead = useIsRead();
  const toggleRead = useToggleRead();
  const sourceLabels = useSourceLabels();
  const canLoadMore = docs.hasNextPage && !docs.isFetchingNextPage;
  const sentinel = useInfiniteSentinel<HTMLDivElement>(() => void docs.fetchNextPage(), Boolean(canLoadMore));

  return (
    <ListState
      query={docs}
      loadingLabel="Loading documents"
      loading={<DocumentSkeleton />}
      errorTitle="Documents could not be loaded"
      isEmpty={(data) => data.pages.every((page) => page.results.length === 0)}
      emptyTitle="No documents yet"
      emptyHint={
        <p>
          Follow a feed and its items will show up here. <Link to="/connect/rss">Add an RSS feed</Link>
        </p>
      }
      empty={empty}
    >
      {(data) => (
        <section className="doc-list" aria-label="Documents">
          {data.pages
            .flatMap((page) => page.results)
            .map((doc) => {
              const read = isRead(doc);
              return (
                <DocumentCard
                  key={doc.deeplink}
                  doc={doc}
                  read={read}
                  sourceLabels={sourceLabels}
                  category={category}
                  flags={flags}
                  onToggleRead={() => toggleRead.mutate({ deeplink: doc.deeplink, read: !read })}
                />
              );
            })}
          <div ref={sentinel} className="doc-list-end">
            {docs.isFetchingNextPage && <Spinner label="Loading more documents" />}
            {canLoadMore && (
              <button type="button" className="button" onClick={() => void docs.fetchNextPage()}>
                Load more
              </button>
            )}
          </div>
        </section>
      )}
    </ListState>
  );
}
