import { useQuery } from '@tanstack/react-query';
import { useId, type Dispatch } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { DATE_RANGE_SHORTHANDS } from '../../../lib/format';
import { boardQueries, type DateRangeCode, type FeedDefinition } from '../api/feeds-api';
import { sourceMode, type BuilderAction, type SourceMode } from '../builder-state';

const MODES: ReadonlyArray<{ mode: SourceMode; label: string }> = [
  { mode: 'none', label: 'Any' },
  { mode: 'include', label: 'Include' },
  { mode: 'exclude', label: 'Exclude' },
];

/**
 * Where the feed looks: each source included, excluded or neither; categories kept (none means
 * all); and how far back (a date range shorthand, or any time).
 */
export function SourceFilters({ definition, dispatch }: { definition: FeedDefinition; dispatch: Dispatch<BuilderAction> }) {
  const choices = useQuery(boardQueries.choices());
  const rangeId = useId();
  return (
    <div className="stack">
      <label className="field" htmlFor={rangeId}>
        <span className="field-label">Published within</span>
        <select
          id={rangeId}
          className="input"
          value={definition.date_range ?? ''}
          onChange={(e) => dispatch({ type: 'dateRange.set', range: (e.target.value || null) as DateRangeCode | null })}
        >
          <option value="">Any time</option>
          {DATE_RANGE_SHORTHANDS.map((d) => (
            <option key={d.shorthand} value={d.shorthand}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <ListState query={choices} compact loadingLabel="Loading sources" errorTitle="Sources could not be loaded">
        {(data) => (
          <>
            {data.categories.length > 0 && (
              <fieldset className="feed-categories">
                <legend>Categories</legend>
                <p className="small muted">None chosen: every category.</p>
                <div className="checkbox-grid">
                  {data.categories.map((c) => (
                    <label key={c.key} className="checkbox-row">
                      <input
                        type="checkbox"
                        checked={definition.common[c.key]?.filter === true}
                        onChange={(e) => dispatch({ type: 'category.toggle', key: c.key, on: e.target.checked })}
                      />
                      {c.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <fieldset className="feed-sources">
              <legend>Sources</legend>
              {data.sources.length === 0 ? (
                <p className="small muted">No sources to choose from yet.</p>
              ) : (
                <ul className="feed-source-list">
                  {data.sources.map((s) => (
                    <SourceRow
                      key={s.source_id}
                      label={s.label}
                      mode={sourceMode(definition, s.source_id)}
                      onMode={(mode) => dispatch({ type: 'source.mode', sourceId: s.source_id, mode })}
                    />
                  ))}
                </ul>
              )}
            </fieldset>
          </>
        )}
      </ListState>
    </div>
  );
}

function SourceRow({ label, mode, onMode }: { label: string; mode: SourceMode; onMode: (mode: SourceMode) => void }) {
  const id = useId();
  return (
    <li className="feed-source-row">
      <label htmlFor={id} className="feed-source-name">
        {label}
      </label>
      <select id={id} className="input input-small" value={mode} onChange={(e) => onMode(e.target.value as SourceMode)}>
        {MODES.map((m) => (
          <option key={m.mode} value={m.mode}>
            {m.label}
          </option>
        ))}
      </select>
    </li>
  );
}
