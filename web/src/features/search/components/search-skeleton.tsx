/** Placeholder results while a page of them loads. */
export function SearchSkeleton({ count = 5 }: { count?: number }) {
  return (
    <div role="status" aria-label="Loading search results" className="doc-list">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="doc-card card skeleton-card" data-testid="search-skeleton" aria-hidden="true">
          <div className="skeleton skeleton-title" />
          <div className="skeleton skeleton-line skeleton-short" />
          <div className="skeleton skeleton-line" />
          <div className="skeleton skeleton-line" />
        </div>
      ))}
    </div>
  );
}
