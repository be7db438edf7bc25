/** Five placeholder cards shown while the first page loads. */
export function DocumentSkeleton({ count = 5 }: { count?: number }) {
  return (
    <div role="status" aria-label="Loading documents" className="doc-list">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="doc-card card skeleton-card" data-testid="document-skeleton" aria-hidden="true">
          <div className="skeleton skeleton-title" />
          <div className="skeleton skeleton-line" />
          <div className="skeleton skeleton-line skeleton-short" />
        </div>
      ))}
    </div>
  );
}
