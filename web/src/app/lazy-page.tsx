import { lazy, Suspense, type ComponentType } from 'react';
import { Spinner } from '../components/ui/spinner';

/**
 * Returns a page that loads its code when first shown, saying what it loads meanwhile (a status
 * with a text alternative), so the app's first download holds only the shell and the page opened.
 * A chunk that fails to load throws to the nearest error boundary (the shell's, or the app's for
 * the sign-in pages) like any other page error.
 */
export function lazyPage<P extends object>(label: string, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Page = lazy(() => load().then((component) => ({ default: component })));
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<Spinner label={label} />}>
        <Page {...props} />
      </Suspense>
    );
  }
  return LazyPage;
}
