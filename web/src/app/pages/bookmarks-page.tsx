import { EmptyState } from '../../components/ui/empty-state';
import { DocumentList } from '../../features/documents';
import { tagListings } from '../../features/tags';

/**
 * /needlbox/bookmarks/all: the documents the user bookmarked, the most recent first, 20 a page.
 * The tags feature names the list and the documents feature draws it; they meet here.
 */
export function BookmarksPage() {
  return (
    <div className="page-narrow">
      <DocumentList
        source={null}
        listing={tagListings.bookmarks()}
        category="needlbox"
        hideDelete
        empty={
          <EmptyState title="No bookmarks yet">
            <p>Bookmark a document from its card (its Bookmark button) and it is kept here, the most recent first.</p>
          </EmptyState>
        }
      />
    </div>
  );
}
