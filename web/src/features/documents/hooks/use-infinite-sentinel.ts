import { useEffect, useRef } from 'react';

/**
 * Returns a ref for an element at the end of a list; when it scrolls into view (or near it),
 * `onVisible` runs. Without IntersectionObserver (tests, old browsers) nothing happens and the
 * list's "Load more" button does the work.
 */
export function useInfiniteSentinel<T extends Element>(onVisible: () => void, enabled: boolean) {
  const ref = useRef<T>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);

  return ref;
}
