import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { sourceQueries } from '../api/source-api';
import { useBulkSelection } from '../hooks/use-bulk-selection';
import { useRssPriority } from '../hooks/use-rss-priority';
import { useUnfollowSource } from '../hooks/use-unfollow-source';
import { BulkPriorityBar } from './bulk-priority-bar';
import { RssSourceRow } from './rss-source-row';

/** The followed RSS feeds, each with its priority, and bulk priority for the checked ones. */
export function RssSourceList() {
  const sources = useQuery(sourceQueries.rss());
  const ids = useMemo(() => sources.data?.results.map((s) => s.source_id) ?? [], [sources.data]);
  const selection = useBulkSelection(ids);
  const priority = useRssPriority();
  const unfollow = useUnfollowSource();

  return (
    <ListState
      query={sources}
      loadingLabel="Loading feeds"
      errorTitle="Your feeds could not be loaded"
      isEmpty={(list) => list.results.length === 0}
      emptyTitle="No feeds yet"
      emptyHint={<p>Add a feed address above; its items will appear in My Data.</p>}
    >
      {(list) => (
        <section className="card stack" aria-labelledby="rss-list-heading">
          <div className="rss-list-head">
            <h2 id="rss-list-heading" className="card-title">
              Followed feeds
            </h2>
            <label className="checkbox-label">
              <input type="checkbox" className="checkbox" checked={selection.allSelected} onChange={selection.toggleAll} />
              Select all
            </label>
          </div>
          {selection.count > 0 && (
            <BulkPriorityBar
              count={selection.count}
              canApply={selection.canApply}
              overLimit={selection.overLimit}
              pending={priority.isPending}
              onApply={(value) =>
                priority.mutate({ sourceIds: selection.selected, priority: value }, { onSuccess: selection.clear })
              }
            />
          )}
          <ul className="rss-list" aria-label="Followed feeds">
            {list.results.map((source) => (
              <RssSourceRow
                key={source.source_id}
                source={source}
                selected={selection.isSelected(source.source_id)}
                onToggleSelected={() => selection.toggle(source.source_id)}
                onPriority={(value) => priority.mutate({ sourceIds: [source.source_id], priority: value })}
                onUnfollow={() => unfollow.mutate(source.source_id)}
                unfollowing={unfollow.isPending && unfollow.variables === source.source_id}
              />
            ))}
          </ul>
        </section>
      )}
    </ListState>
  );
}
