import { useFollowCompanyForm } from '../hooks/use-follow-company-form';
import { EdgarCompanySearch } from './edgar-company-search';
import { EdgarFormChoices } from './edgar-form-choices';

/** The form that follows a US company's SEC filings, optionally only some forms. */
export function EdgarFollowForm({ forms }: { forms: readonly string[] }) {
  const form = useFollowCompanyForm();
  return (
    <section className="card" aria-labelledby="edgar-follow-heading">
      <h2 id="edgar-follow-heading" className="card-title">
        Follow a company
      </h2>
      <p className="muted small">
        Find a US company listed with the SEC by ticker, CIK or name. Needl checks EDGAR for its new filings and brings
        them into My Data under Exchanges (US).
      </p>
      <form className="add-rss-form" noValidate onSubmit={form.handleSubmit} aria-label="Follow a company">
        <EdgarCompanySearch search={form.search} error={form.error} />
        <EdgarFormChoices forms={forms} />
        {form.serverError && (
          <p className="form-error" role="alert">
            {form.serverError}
          </p>
        )}
        <div>
          {/* Not `disabled`: a disabled button drops the keyboard focus it holds. */}
          <button className="button button-primary" type="submit" aria-disabled={form.pending || undefined}>
            {form.pending ? 'Following…' : 'Follow'}
          </button>
        </div>
      </form>
    </section>
  );
}
