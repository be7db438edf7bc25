import { Link } from 'react-router';
import { TextField } from '../../../components/ui/text-field';
import { useFollowWebsite } from '../hooks/use-follow-website';

/** The form that follows a website by its address. */
export function FollowWebsiteForm() {
  const form = useFollowWebsite();
  return (
    <section className="card" aria-labelledby="follow-website-heading">
      <h2 id="follow-website-heading" className="card-title">
        Follow a website
      </h2>
      <p className="muted small">
        Needl looks for the site's RSS or Atom feed and follows it; a site without one has its pages read instead. New
        items arrive in My Data.
      </p>
      <form className="add-rss-form" noValidate onSubmit={form.handleSubmit} aria-label="Follow website">
        <TextField label="Website URL" name="url" type="url" placeholder="https://example.com" error={form.error} />
        {form.serverError && (
          <p className="form-error" role="alert">
            {form.serverError}
          </p>
        )}
        {form.followed && (
          <p className="form-success" role="status">
            Following {form.followed.label ?? form.followed.url ?? 'the website'}. <Link to="/connect/website/followed">See followed websites</Link>
          </p>
        )}
        <div>
          <button className="button button-primary" type="submit" disabled={form.pending}>
            {form.pending ? 'Following…' : 'Follow'}
          </button>
        </div>
      </form>
    </section>
  );
}
