import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons';
import { lastPage, paginationText } from '../pagination';

export interface SearchPaginationProps {
  page: number;
  shown: number;
  total: number;
  onPage: (page: number) => void;
}

/** "x to y of N results", with the previous and next pages. */
export function SearchPagination({ page, shown, total, onPage }: SearchPaginationProps) {
  const text = paginationText(page, shown, total);
  return (
    <nav className="search-pagination" aria-label="Result pages">
      <p className="small muted" data-testid="search-range">
        {text}
      </p>
      <div className="search-pagination-buttons">
        <button type="button" className="button" aria-label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeftIcon size={16} /> Previous
        </button>
        <button type="button" className="button" aria-label="Next page" disabled={page >= lastPage(total)} onClick={() => onPage(page + 1)}>
          Next <ChevronRightIcon size={16} />
        </button>
      </div>
    </nav>
  );
}
