import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../../components/ui/list-state';
import { PULSE_PATHS } from '../../../../lib/variant';
import { portfolioQueries, type Portfolio } from '../api/portfolio-api';
import { EditPortfolio } from './edit-portfolio';
import { PortfolioForm } from './portfolio-form';
import '../portfolios.css';

const pulsePortfolioPath = (id: string) => `${PULSE_PATHS.portfolio}?id=${encodeURIComponent(id)}`;

/** The user's portfolios to choose between, when they have more than one. */
function PortfolioChoice({ list, current }: { list: Portfolio[]; current: string }) {
  return (
    <nav aria-label="Your portfolios" className="settings-nav">
      {list.map((portfolio) => (
        <Link
          key={portfolio.id}
          to={pulsePortfolioPath(portfolio.id)}
          replace
          className={portfolio.id === current ? 'settings-nav-link active' : 'settings-nav-link'}
          aria-current={portfolio.id === current ? 'page' : undefined}
        >
          {portfolio.name}
        </Link>
      ))}
    </nav>
  );
}

/**
 * /pulse/update-portfolio: the pulse variant's portfolio, created here when the user has none,
 * else edited (the newest, or the one `?id=` names when they have several). Saved, the page stays,
 * with the saved portfolio in the form and the toast saying so.
 */
export function UpdatePortfolioPage() {
  const [params, setParams] = useSearchParams();
  const portfolios = useQuery(portfolioQueries.list());
  // Focus goes back to the heading once saved: the form under it is drawn afresh.
  const heading = useRef<HTMLHeadingElement>(null);
  const onSaved = (saved: Portfolio) => {
    if (params.get('id') !== saved.id) setParams({ id: saved.id }, { replace: true });
    heading.current?.focus();
  };
  const chosen = params.get('id') ?? portfolios.data?.[0]?.id ?? null;

  return (
    <div className="stack-lg">
      <h1 ref={heading} className="pulse-title" tabIndex={-1}>
        {portfolios.isSuccess && !chosen ? 'Create your portfolio' : 'Update your portfolio'}
      </h1>
      <section className="card stack" aria-label="Portfolio">
        <p className="small muted">The companies you hold, by ISIN: your updates are about them.</p>
        <ListState query={portfolios} loadingLabel="Loading your portfolio" errorTitle="Your portfolio could not be loaded">
          {(list) =>
            chosen ? (
              <>
                {list.length > 1 && <PortfolioChoice list={list} current={chosen} />}
                <EditPortfolio key={chosen} id={chosen} onSaved={onSaved} cancelTo={null} backTo={PULSE_PATHS.portfolio} />
              </>
            ) : (
              <PortfolioForm onSaved={onSaved} cancelTo={null} />
            )
          }
        </ListState>
      </section>
    </div>
  );
}
