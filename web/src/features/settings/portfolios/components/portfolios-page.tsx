import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ListState } from '../../../../components/ui/list-state';
import { SettingsNav } from '../../components/settings-nav';
import { portfolioQueries, type Portfolio } from '../api/portfolio-api';
import { CREATE_PORTFOLIO_PATH } from '../paths';
import { DeletePortfolioDialog } from './delete-portfolio-dialog';
import { PortfolioItem } from './portfolio-item';
import '../portfolios.css';

const createLink = (
  <Link to={CREATE_PORTFOLIO_PATH} className="button button-primary">
    Create portfolio
  </Link>
);

/** /settings/portfolios: the user's portfolios, newest first, each opened to edit or deleted after asking. */
export function PortfoliosPage() {
  const portfolios = useQuery(portfolioQueries.list());
  const [deleting, setDeleting] = useState<Portfolio | null>(null);
  // Where focus goes once the deleted portfolio's row (and its Delete button) is gone.
  const heading = useRef<HTMLHeadingElement>(null);
  const some = (portfolios.data?.length ?? 0) > 0;
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="portfolios-heading">
        <div className="portfolios-header">
          <h2 id="portfolios-heading" ref={heading} className="card-title" tabIndex={-1}>
            Portfolios
          </h2>
          {some && createLink}
        </div>
        <p className="small muted">
          The companies you hold, by ISIN. Their names are offered to your AI feeds as companies to watch.
        </p>
        <ListState
          query={portfolios}
          loadingLabel="Loading your portfolios"
          errorTitle="Your portfolios could not be loaded"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState title="No portfolios yet">
              <p>Add the companies you hold, with their ISINs and quantities, or paste them from a spreadsheet.</p>
              <p>{createLink}</p>
            </EmptyState>
          }
        >
          {(list) => (
            <ul className="portfolio-list" aria-label="Your portfolios">
              {list.map((portfolio) => (
                <PortfolioItem key={portfolio.id} portfolio={portfolio} onDelete={() => setDeleting(portfolio)} />
              ))}
            </ul>
          )}
        </ListState>
        {deleting && (
          <DeletePortfolioDialog
            portfolio={deleting}
            onClose={() => setDeleting(null)}
            onDeleted={() => {
              setDeleting(null);
              heading.current?.focus();
            }}
          />
        )}
      </section>
    </div>
  );
}
