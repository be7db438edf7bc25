import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Spinner } from '../../../../components/ui/spinner';
import { isApiError } from '../../../../lib/api-client';
import { portfolioQueries } from '../api/portfolio-api';
import { PORTFOLIOS_PATH } from '../paths';
import { PortfolioForm, type PortfolioFormProps } from './portfolio-form';

export interface EditPortfolioProps extends Omit<PortfolioFormProps, 'portfolio'> {
  id: string;
  /** Where to go back to when the portfolio is gone. */
  backTo?: string;
}

/** A saved portfolio, loaded and then in the form. */
export function EditPortfolio({ id, backTo = PORTFOLIOS_PATH, ...form }: EditPortfolioProps) {
  const portfolio = useQuery(portfolioQueries.detail(id));
  if (portfolio.isPending) return <Spinner label="Loading the portfolio" showLabel />;
  if (portfolio.isError) {
    const gone = isApiError(portfolio.error) && portfolio.error.status === 404;
    return (
      <div className="form-error" role="alert">
        {gone ? 'This portfolio does not exist, or it is not yours. ' : 'The portfolio could not be loaded. '}
        {gone ? (
          <Link to={backTo}>Back to your portfolios</Link>
        ) : (
          <button type="button" className="button button-quiet" onClick={() => void portfolio.refetch()}>
            Try again
          </button>
        )}
      </div>
    );
  }
  // A newer copy (saved elsewhere) starts the form afresh.
  return <PortfolioForm key={portfolio.data.updated_at} portfolio={portfolio.data} {...form} />;
}
