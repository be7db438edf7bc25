/** The overlay kinds' bodies: placeholders until their features fill them in, and the custom-feed builder. The report's is the reports feature's. */
import type { OverlayBodyProps } from '../../lib/overlay/overlay-registry';
import { lazyPage } from '../lazy-page';
import { type CustomFeedParams, type PreviewParams } from './overlay-schemas';

export function PreviewOverlay({ params }: OverlayBodyProps<PreviewParams>) {
  return (
    <section className="overlay-body">
      <h2>Preview</h2>
      <dl className="overlay-facts">
        <dt>Source</dt>
        <dd>{params.source}</dd>
        <dt>Category</dt>
        <dd>{params.category}</dd>
        <dt>Document</dt>
        <dd>{params.deeplink}</dd>
      </dl>
    </section>
  );
}

export function PortfolioOverlay({ close }: OverlayBodyProps<{ type: 'portfolio' }>) {
  return (
    <section className="overlay-body">
      <h2>Create Portfolio</h2>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          close();
        }}
      >
        <label className="field">
          <span className="field-label">Portfolio name</span>
          <input className="input" name="name" />
        </label>
        <label className="field">
          <span className="field-label">Description</span>
          <textarea className="input" name="description" rows={3} />
        </label>
        <button type="submit" className="button button-primary" disabled>
          Create
        </button>
      </form>
    </section>
  );
}

const CustomFeedOverlayBody = lazyPage('Loading the feed builder', () =>
  import('../../features/feeds/pages').then((m) => m.CustomFeedOverlayBody),
);

/** The custom-feed builder (the feeds feature, loaded when first opened), with the overlay's parameters. */
export function CustomFeedOverlay({ params, close }: OverlayBodyProps<CustomFeedParams>) {
  return <CustomFeedOverlayBody params={params} close={close} />;
}
