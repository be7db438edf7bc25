import { useRef } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import type { FollowedCompany } from '../api/edgar-api';
import { useCheckCompany, useUnfollowCompany } from '../hooks/use-edgar-mutations';
import { EdgarCompanyRow } from './edgar-company-row';

export interface EdgarCompanyListProps {
  companies: FollowedCompany[];
  /** Whether EDGAR can be checked here now; without it the rows offer Unfollow alone. */
  checkable: boolean;
}

/**
 * The companies followed, each with Check now and Unfollow. When a company goes, keyboard focus
 * moves to the list's heading instead of being lost with its row.
 */
export function EdgarCompanyList({ companies, checkable }: EdgarCompanyListProps) {
  const check = useCheckCompany();
  const unfollow = useUnfollowCompany();
  const heading = useRef<HTMLHeadingElement>(null);
  const busy = (mutation: { isPending: boolean; variables?: string }, sourceId: string) =>
    mutation.isPending && mutation.variables === sourceId;

  return (
    <section className="card stack" aria-labelledby="edgar-companies-heading">
      <h2 id="edgar-companies-heading" className="card-title" tabIndex={-1} ref={heading}>
        Followed companies
      </h2>
      {companies.length === 0 ? (
        <EmptyState title="No companies followed yet">
          <p>Follow a company above and each new filing it makes with the SEC arrives in My Data under Exchanges (US).</p>
        </EmptyState>
      ) : (
        <ul className="rss-list" aria-label="Followed companies">
          {companies.map((company) => (
            <EdgarCompanyRow
              key={company.source_id}
              company={company}
              onCheck={checkable ? () => check.mutate(company.source_id) : undefined}
              checking={busy(check, company.source_id)}
              onUnfollow={() => unfollow.mutate(company.source_id, { onSuccess: () => heading.current?.focus() })}
              unfollowing={busy(unfollow, company.source_id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
