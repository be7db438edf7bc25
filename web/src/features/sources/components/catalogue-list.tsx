import { useMemo, useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { MAX_FOLLOW_AT_ONCE, type PublicSource } from '../api/catalogue-api';
import { applyFilter, type CatalogueFilter } from '../catalogue-filter';
import { useBulkSelection } from '../hooks/use-bulk-selection';
import { useFollowPublic, useFollowPublicMany } from '../hooks/use-follow-public';
import { CatalogueRow } from './catalogue-row';
import { FollowSelectedBar } from './follow-selected-bar';

export interface CatalogueListProps {
  sources: PublicSource[];
  filter: CatalogueFilter;
  onClearFilter: () => void;
}

const plural = (n: number) => `${n} ${n === 1 ? 'source' : 'sources'}`;

/**
 * The catalogue entries that pass the filter, how many of how many, the selection of unfollowed
 * entries shown (Select all shown, Follow selected) and each entry's Follow or Unfollow. What
 * was followed or unfollowed is also said in a status, for screen readers.
 */
export function CatalogueList({ sources, filter, onClearFilter }: CatalogueListProps) {
  const shown = useMemo(() => applyFilter(sources, filter), [sources, filter]);
  const selectable = useMemo(() => shown.filter((s) => !s.following).map((s) => s.key), [shown]);
  const selection = useBulkSelection(selectable, MAX_FOLLOW_AT_ONCE);
  const follow = useFollowPublic();
  const followMany = useFollowPublicMany();
  const [said, setSaid] = useState('');

  const toggle = (source: PublicSource, follows: boolean) => {
    follow.mutate({ key: source.key, follow: follows });
    setSaid(follows ? `Following ${source.title}.` : `Stopped following ${source.title}.`);
  };
  const followSelected = () => {
    const keys = selection.selected;
    followMany.mutate(keys);
    selection.clear();
    setSaid(`Following ${plural(keys.length)}.`);
  };
  const busy = (key: string) => follow.isPending && follow.variables?.key === key;

  return (
    <section className="card stack" aria-labelledby="catalogue-heading">
      <div className="rss-list-head">
        <h2 id="catalogue-heading" className="card-title">
          Sources
        </h2>
        <p className="small muted catalogue-count" role="status">
          {shown.length === sources.length ? plural(sources.length) : `${shown.length} of ${plural(sources.length)}`}
        </p>
        {selectable.length > 0 && (
          <label className="checkbox-label">
            <input type="checkbox" className="checkbox" checked={selection.allSelected} onChange={selection.toggleAll} />
            Select all shown
          </label>
        )}
      </div>
      {selection.count > 0 && (
        <FollowSelectedBar
          count={selection.count}
          canApply={selection.canApply}
          overLimit={selection.overLimit}
          pending={followMany.isPending}
          onFollow={followSelected}
          onClear={selection.clear}
        />
      )}
      {shown.length === 0 ? (
        <EmptyState title="No sources match">
          <p>Try other words, or another group.</p>
          <button type="button" className="button" onClick={onClearFilter}>
            Clear filters
          </button>
        </EmptyState>
      ) : (
        <ul className="catalogue-list" aria-label="Public sources">
          {shown.map((source) => (
            <CatalogueRow
              key={source.key}
              source={source}
              selected={selection.isSelected(source.key)}
              onToggleSelected={() => selection.toggle(source.key)}
              onFollow={(follows) => toggle(source, follows)}
              busy={busy(source.key)}
            />
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status">
        {said}
      </p>
    </section>
  );
}
