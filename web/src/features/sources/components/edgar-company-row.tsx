import { useId } from 'react';
import { formatAhead } from '../../../lib/feed-status';
import { asSentence, formatRelative } from '../../../lib/format';
import { fetchPending } from '../../../lib/queries/source-queries';
import type { FollowedCompany } from '../api/edgar-api';
import { filingsLine, formsLine, shortCik } from '../edgar-display';

export interface EdgarCompanyRowProps {
  company: FollowedCompany;
  /** Asks for a check now; without it (EDGAR is off here) there is no Check now, nor a next check to tell. */
  onCheck?: () => void;
  /** Whether a Check now of this company is on its way. */
  checking: boolean;
  onUnfollow: () => void;
  unfollowing: boolean;
  now?: Date;
}

/**
 * One followed company: its name, ticker and CIK, the forms followed, how many filings came in,
 * how its checks go (when, what failed), Check now and Unfollow. The buttons stay focusable while
 * busy, so keyboard focus is not dropped.
 */
export function EdgarCompanyRow({ company, onCheck, checking, onUnfollow, unfollowing, now }: EdgarCompanyRowProps) {
  const titleId = useId();
  const pending = checking || fetchPending(company, now?.getTime());
  const { name } = company;
  return (
    <li className="rss-row edgar-row" aria-labelledby={titleId} data-testid="edgar-company">
      <div className="rss-row-text edgar-row-text">
        <span id={titleId} className="rss-row-label">
          {name}
        </span>
        <span className="small muted">{[company.ticker, `CIK ${shortCik(company.cik)}`].filter(Boolean).join(' · ')}</span>
        <span className="small">
          {formsLine(company.forms)} · {filingsLine(company.filings)}
        </span>
        <CheckStatus company={company} pending={pending} scheduled={Boolean(onCheck)} now={now} />
      </div>
      <div className="edgar-row-actions">
        {onCheck && (
          <button
            type="button"
            className="button button-small"
            aria-label={pending ? `Checking ${name}` : `Check now for ${name}`}
            aria-disabled={pending || undefined}
            onClick={() => !pending && onCheck()}
          >
            {pending ? 'Checking…' : 'Check now'}
          </button>
        )}
        <button
          type="button"
          className="button button-quiet button-small"
          aria-label={`Unfollow ${name}`}
          aria-disabled={unfollowing || undefined}
          onClick={() => !unfollowing && onUnfollow()}
        >
          Unfollow
        </button>
      </div>
    </li>
  );
}

/** When EDGAR was checked for the company and is checked next, and why the last check failed. */
function CheckStatus(props: { company: FollowedCompany; pending: boolean; scheduled: boolean; now?: Date }) {
  const { company, pending, scheduled, now } = props;
  const next = scheduled ? company.next_attempt_at : null;
  if (pending) {
    return (
      <span className="small muted" role="status">
        Checking EDGAR for new filings…
      </span>
    );
  }
  if (!company.last_attempt_at) {
    return <span className="small muted">Not checked yet{next && `; first check ${formatAhead(next, now)}`}</span>;
  }
  return (
    <>
      <span className="small muted">
        Last checked {formatRelative(company.last_attempt_at, now)}
        {next && ` · next check ${formatAhead(next, now)}`}
      </span>
      {company.last_error && (
        <span className="small website-error">
          The last check failed: {asSentence(company.last_error)}
          {company.last_fetched_at && ` It last worked ${formatRelative(company.last_fetched_at, now)}.`}
        </span>
      )}
    </>
  );
}
