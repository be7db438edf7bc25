import { useEffect, useState } from 'react';
import { LOADING_PHRASE_MS, LOADING_PHRASES, loadingPhrase } from '../loading-phrases';

/** Returns the loading phrase to show: the next one every 2 s, then the last one for good. */
export function useLoadingPhrase(): string {
  const [elapsed, setElapsed] = useState(0);
  const last = (LOADING_PHRASES.length - 1) * LOADING_PHRASE_MS;
  useEffect(() => {
    if (elapsed >= last) return;
    const timer = setTimeout(() => setElapsed((e) => e + LOADING_PHRASE_MS), LOADING_PHRASE_MS);
    return () => clearTimeout(timer);
  }, [elapsed, last]);
  return loadingPhrase(elapsed);
}
