import { useSearchParams } from 'react-router';
import { SettingsNav } from '../../components/settings-nav';
import { EditPortfolio } from './edit-portfolio';
import { PortfolioForm } from './portfolio-form';
import '../portfolios.css';

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
