/**
 * Notices: messages a feature raises that did not come from a call (a file refused before
 * upload, say). Features publish them here; the app shows them as toasts. This keeps features
 * free of the app's toast machine, as the query and mutation caches do for failed calls.
 */

export type NoticeType = 'error' | 'success' | 'blank';

export interface Notice {
  type: NoticeType;
  message: string;
  /** How long it stays, in ms; the toast type's usual duration when absent. */
  duration?: number;
}

type Listener = (notice: Notice) => void;

const listeners = new Set<Listener>();

/** Shows `notice` wherever the app listens; with no listener it is only logged. */
export function notify(notice: Notice): void {
  if (listeners.size === 0) console.warn('notice with no listener:', notice.message);
  listeners.forEach((listener) => listener(notice));
}

/** Listens for notices; returns the function that stops listening. */
export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
