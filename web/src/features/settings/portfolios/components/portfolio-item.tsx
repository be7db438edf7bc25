import { Link } from 'react-router';
import { formatDate, formatRelative } from '../../../../lib/format';
import type { Portfolio } from '../api/portfolio-api';
import { editPortfolioPath } from '../paths';

/** Returns "3 holdings" (or "No holdings"). */
export const holdingsText = (count: number) => (count === 0 ? 'No holdings' : count === 1 ? '1 holding' : `${count} holdings`);

/** Returns "updated 5 mins ago", "updated yesterday" or "updated on 02-01-2026". */
export function updatedText(updatedAt: string, now?: Date): string {
  const when = formatRelative(updatedAt, now);
  return when === formatDate(updatedAt) ? `updated on ${when}` : `updated ${when}`;
}

export interface PortfolioItemProps {
  portfolio: Portfolio;
  onDelete: () => void;
}

/** One portfolio in the list: its name (which opens it), how many holdings, when it changed; Edit and Delete. */
export function PortfolioItem({ portfolio, onDelete }: PortfolioItemProps) {
  const { id, name, holdings, updated_at } = portfolio;
  return (
    <li className="portfolio-item" aria-label={name}>
      <div className="portfolio-item-text">
        <Link to={editPortfolioPath(id)} className="portfolio-item-name">
          {name}
        </Link>
        <span className="small muted">
          {holdingsText(holdings.length)} ·{' '}
          <time dateTime={updated_at} title={new Date(updated_at).toLocaleString()}>
            {updatedText(updated_at)}
          </time>
        </span>
      </div>
      <div className="portfolio-item-actions">
        <Link to={editPortfolioPath(id)} className="button button-small" aria-label={`Edit ${name}`}>
          Edit
        </Link>
        <button type="button" className="button button-small button-danger-text" aria-label={`Delete ${name}`} onClick={onDelete}>
          Delete
        </button>
      </div>
    </li>
  );
}
