import type { ReactNode } from 'react';
import { serverMessage } from '../../lib/api-client';
import { asSentence } from '../../lib/format';
import { EmptyState } from './empty-state';
import { Spinner } from './spinner';

/** What a list needs of its query: a React Query result fits, as does any object of this shape. */
export interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

export interface ListStateProps<T> {
  query: ListQuery<T>;
  /** Says what is on its way ("Loading your tags"), written beside the spinner. */
  loadingLabel: string;
  /** Replaces the labelled spinner while loading: a skeleton of the list, with its own status. */
  loading?: ReactNode;
  /** Heads the failure ("Your tags could not be loaded"). */
  errorTitle: string;
  /** Says more about a failure when the server gave no words for a person. */
  errorHint?: string;
  /** Returns whether the loaded data has nothing to list; without it, loaded data is listed. */
  isEmpty?: (data: T) => boolean;
  /** Heads the empty state ("No tags yet"). */
  emptyTitle?: string;
  /** Says more under the empty title: what fills the list, often with a link that does it. */
  emptyHint?: ReactNode;
  /** Replaces the whole empty state. */
  empty?: ReactNode;
  /** Writes each state as a line, for a list in a card's section, a popover or a side bar. */
  compact?: boolean;
  /** Draws the loaded list. */
  children: (data: T) => ReactNode;
}

/**
 * A list's three states before it has rows to show, the same on every list: loading (a status
 * with a written label), failed (an alert with the server's own words when it gave some, and
 * Try again, which refetches) and empty (what would fill the list). Then it draws the list.
 */
export function ListState<T>(props: ListStateProps<T>) {
  const { query, loadingLabel, loading, isEmpty, empty, emptyTitle, emptyHint, compact = false, children } = props;
  if (query.isError) return <ListError {...props} />;
  if (query.isPending || query.data === undefined) return loading ?? <Spinner label={loadingLabel} showLabel />;
  if (isEmpty?.(query.data)) {
    if (empty !== undefined) return empty;
    if (compact) {
      return (
        <p className="small muted">
          {emptyTitle} {emptyHint}
        </p>
      );
    }
    return <EmptyState title={emptyTitle ?? 'Nothing here yet'}>{emptyHint}</EmptyState>;
  }
  return children(query.data);
}

function ListError<T>({ query, errorTitle, errorHint, compact }: ListStateProps<T>) {
  const message = serverMessage(query.error);
  const detail = message ? asSentence(message) : errorHint;
  const retry = (
    <button
      type="button"
      className={compact ? 'button button-quiet button-small' : 'button'}
      onClick={() => void query.refetch()}
    >
      Try again
    </button>
  );
  if (compact) {
    return (
      <p className="form-error" role="alert">
        {asSentence(errorTitle)} {detail && `${detail} `}
        {retry}
      </p>
    );
  }
  return (
    <EmptyState title={errorTitle} role="alert">
      {detail && <p>{detail}</p>}
      {retry}
    </EmptyState>
  );
}
