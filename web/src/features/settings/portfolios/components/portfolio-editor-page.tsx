import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../../components/ui/spinner';
import { isApiError } from '../../../../lib/api-client';
import { SettingsNav } from '../../components/settings-nav';
import { portfolioQueries } from '../api/portfolio-api';
import { PORTFOLIOS_PATH } from '../paths';
import { PortfolioForm } from './portfolio-form';
import '../portfolios.css';

/** A saved portfolio, loaded and then in the form. */
function EditPortfolio({ id }: { id: string }) {
  const portfolio = useQuery(portfolioQueries.detail(id));
  if (portfolio.isPending) return <Spinner label="Loading the portfolio" showLabel />;
  if (portfolio.isError) {
    const gone = isApiError(portfolio.error) && portfolio.error.status === 404;
    return (
      <div className="form-error" role="alert">
        {gone ? 'This portfolio does not exist, or it is not yours. ' : 'The portfolio could not be loaded. '}
        {gone ? (
          <Link to={PORTFOLIOS_PATH}>Back to your portfolios</Link>
        ) : (
          <button type="button" className="button button-quiet" onClick={() => void portfolio.refetch()}>
            Try again
          </button>
        )}
      </div>
    );
  }
  // A newer copy (saved elsewhere) starts the form afresh.
  return <PortfolioForm key={portfolio.data.updated_at} portfolio={portfolio.data} />;
}

/**
 * /settings/portfolios/create-portfolio: a new portfolio, or with `?id=` an existing one to edit
 * (the spec names only these two addresses, so editing shares the create page's).
 */
export function PortfolioEditorPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="portfolio-editor-heading">
        <h2 id="portfolio-editor-heading" className="card-title">
          {id ? 'Edit portfolio' : 'Create portfolio'}
        </h2>
        {id ? <EditPortfolio key={id} id={id} /> : <PortfolioForm />}
      </section>
    </div>
  );
}
