import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { asSentence } from '../../../lib/format';
import { edgarQueries } from '../api/edgar-api';
import { EdgarCompanyList } from './edgar-company-list';
import { EdgarFollowForm } from './edgar-follow-form';

/**
 * /connect/edgar: follow US companies' SEC filings by ticker, CIK or name, optionally only some
 * forms, and see the companies followed. When EDGAR is off here the page says why instead of
 * offering the form; companies followed before it was turned off are still listed, to unfollow
 * (there is nothing to check them with).
 */
export function EdgarPage() {
  const edgar = useQuery(edgarQueries.followed());
  return (
    <div className="page-narrow stack-lg">
      <ListState
        query={edgar}
        loadingLabel="Loading SEC filings"
        loading={<EdgarSkeleton />}
        errorTitle="Your followed companies could not be loaded"
      >
        {(data) => (
          <>
            {data.enabled ? <EdgarFollowForm forms={data.forms} /> : <EdgarOff reason={data.reason} />}
            {(data.enabled || data.companies.length > 0) && (
              <EdgarCompanyList companies={data.companies} checkable={data.enabled} />
            )}
          </>
        )}
      </ListState>
    </div>
  );
}

/** Why companies cannot be followed here, in the server's words. */
function EdgarOff({ reason }: { reason?: string | null }) {
  return (
    <section className="card" aria-labelledby="edgar-off-heading">
      <h2 id="edgar-off-heading" className="card-title">
        SEC filings are not available on this instance
      </h2>
      <p>{reason ? asSentence(reason) : 'The operator has not turned on SEC EDGAR here.'}</p>
      <p className="muted small">Until it is on, no company can be followed and no filing is brought in.</p>
    </section>
  );
}

/** The form's card and three rows, drawn while the page loads. */
function EdgarSkeleton() {
  return (
    <div role="status" aria-label="Loading SEC filings" className="stack-lg">
      <div className="card stack" aria-hidden="true">
        <div className="skeleton skeleton-title" />
        <div className="skeleton skeleton-line" />
        <div className="skeleton skeleton-line skeleton-short" />
      </div>
      <div className="card stack" aria-hidden="true" data-testid="edgar-skeleton">
        {[0, 1, 2].map((row) => (
          <div key={row} className="stack">
            <div className="skeleton skeleton-line skeleton-short" />
            <div className="skeleton skeleton-line" />
          </div>
        ))}
      </div>
    </div>
  );
}
