/**
 * A loading indicator with a text alternative. With `showLabel` the label is written beside it
 * too, for a wait long enough that a person should read what is on its way.
 */
export function Spinner({ label = 'Loading', showLabel = false }: { label?: string; showLabel?: boolean }) {
  return (
    <div className={showLabel ? 'spinner-wrap spinner-labelled' : 'spinner-wrap'} role="status" aria-label={label}>
      <span className="spinner" aria-hidden="true" />
      <span className={showLabel ? 'spinner-label' : 'visually-hidden'}>{label}</span>
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <div className="full-page-center">
      <Spinner />
    </div>
  );
}
