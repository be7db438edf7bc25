import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/ui/spinner';
import { pricingQueries, type PricingKey, type UserPlan } from '../../../lib/pricing';
import { PlanUsageList } from './plan-usage';
import { SettingsNav } from './settings-nav';

/** What each pricing key lets a person do, as the Plan page lists it. */
export const FEATURE_LABELS: Record<PricingKey, string> = {
  add_feed: 'Make feeds',
  enable_feed: 'Turn feeds on',
  view_myfeeds: 'Read your feeds',
  add_notebook: 'Add to notes',
  view_notebook: 'Open notebooks',
  save_clip: 'Save web clips',
  view_clipped: 'Read web clips',
  add_to_needldrive: 'Upload to Needl Drive',
  view_needldrive: 'Open Needl Drive',
  connect_app: 'Connect apps',
};

/** The plan's features in the page's order, and those it leaves out. */
function featuresOf(plan: UserPlan['plan']) {
  const keys = Object.keys(FEATURE_LABELS) as PricingKey[];
  return {
    included: keys.filter((k) => plan.features.includes(k)),
    excluded: keys.filter((k) => !plan.features.includes(k)),
  };
}

function PlanIncludes({ plan }: { plan: UserPlan['plan'] }) {
  const { included, excluded } = featuresOf(plan);
  return (
    <section className="stack-sm" aria-labelledby="plan-includes-heading">
      <h3 id="plan-includes-heading">What it includes</h3>
      {included.length === 0 ? (
        <p className="muted">This plan includes none of the features plans decide.</p>
      ) : (
        <ul className="plan-features" aria-labelledby="plan-includes-heading">
          {included.map((key) => (
            <li key={key}>{FEATURE_LABELS[key]}</li>
          ))}
        </ul>
      )}
      {excluded.length > 0 && included.length > 0 && (
        <p className="small muted">Not included: {excluded.map((key) => FEATURE_LABELS[key]).join(', ')}.</p>
      )}
    </section>
  );
}

function PlanDetails({ data }: { data: UserPlan }) {
  const { plan, pricing, usage, billing_portal_url: portal } = data;
  return (
    <>
      <div className="stack-sm">
        <p className="plan-name">
          <strong>{plan.name}</strong>
        </p>
        {plan.description && <p className="muted">{plan.description}</p>}
        {!pricing && <p>Plans do not limit this account: every feature is open to it, with no limit on feeds or notebooks.</p>}
      </div>
      {pricing && <PlanIncludes plan={plan} />}
      <section className="stack-sm" aria-labelledby="plan-usage-heading">
        <h3 id="plan-usage-heading">Usage</h3>
        <PlanUsageList usage={usage} limits={plan.limits} pricing={pricing} />
      </section>
      {portal ? (
        <p>
          <a href={portal} target="_blank" rel="noopener" className="button button-primary">
            Manage billing
          </a>
        </p>
      ) : (
        pricing && <p className="muted">Ask your administrator to change your plan.</p>
      )}
    </>
  );
}

/** /settings/plan: the user's plan, what it includes, usage against its limits, and how to change it. */
export function PlanPage() {
  const plan = useQuery(pricingQueries.userPlan());
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="plan-heading">
        <h2 id="plan-heading" className="card-title">
          Plan
        </h2>
        {plan.isPending ? (
          <Spinner label="Loading your plan" showLabel />
        ) : plan.isError ? (
          <div className="form-error" role="alert">
            Your plan could not be loaded.{' '}
            <button type="button" className="button button-quiet" onClick={() => void plan.refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <PlanDetails data={plan.data} />
        )}
      </section>
    </div>
  );
}
