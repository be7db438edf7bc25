import { TextField } from '../../../components/ui/text-field';
import { useAddRssFeed } from '../hooks/use-add-rss-feed';

/** The form that follows a new feed by its address, with an optional label. */
export function AddRssForm() {
  const form = useAddRssFeed();
  return (
    <section className="card" aria-labelledby="add-rss-heading">
      <h2 id="add-rss-heading" className="card-title">
        Add a feed
      </h2>
      <form className="add-rss-form" noValidate onSubmit={form.handleSubmit} aria-label="Add RSS feed">
        <TextField label="Feed URL" name="url" type="url" placeholder="https://example.com/feed.xml" error={form.errors.url} />
        <TextField label="Label (optional)" name="label" error={form.errors.label} />
        {form.serverError && (
          <p className="form-error" role="alert">
            {form.serverError}
          </p>
        )}
        <div>
          <button className="button button-primary" type="submit" disabled={form.pending}>
            {form.pending ? 'Adding…' : 'Add feed'}
          </button>
        </div>
      </form>
    </section>
  );
}
