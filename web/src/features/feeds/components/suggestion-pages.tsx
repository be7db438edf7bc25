import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { boardQueries } from '../api/feeds-api';
import type { BuilderNav } from '../builder-pages';
import { useAcceptSuggestions } from '../hooks/use-feed-mutations';
import { DefinitionSummary } from './definition-summary';

/** feed-suggestion: feeds suggested from what the user reads; pick some to review. */
export function SuggestionsPage({ nav }: { nav: BuilderNav }) {
  const suggestions = useQuery(boardQueries.suggestions());
  const [picked, setPicked] = useState<string[]>([]);
  return (
    <section className="stack" aria-labelledby="suggestions-heading">
      <h2 id="suggestions-heading">Feed suggestions</h2>
      <ListState
        query={suggestions}
        loadingLabel="Loading suggestions"
        errorTitle="Suggestions could not be loaded"
        isEmpty={(list) => list.length === 0}
        emptyTitle="No suggestions yet"
        emptyHint="Read, follow and tag a little more, and feeds will be suggested here."
      >
        {(list) => (
          <>
            <ul className="suggestion-list">
              {list.map((s) => (
                <li key={s.id}>
                  <label className="checkbox-row">
                    <input
                      type="checkbox"
                      checked={picked.includes(s.id)}
                      onChange={(e) => setPicked((p) => (e.target.checked ? [...p, s.id] : p.filter((x) => x !== s.id)))}
                    />
                    <span>
                      <strong>{s.name}</strong>
                      {s.reason && <span className="small muted"> — {s.reason}</span>}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className="button button-primary"
              disabled={picked.length === 0}
              onClick={() => nav.go('review-feed-suggestion', { 'suggestion-ids': picked.join(',') })}
            >
              Review {picked.length || ''} {picked.length === 1 ? 'suggestion' : 'suggestions'}
            </button>
          </>
        )}
      </ListState>
    </section>
  );
}

/** review-feed-suggestion: the picked suggestions in full; accepting them makes the feeds. */
export function ReviewSuggestionsPage({ ids, nav }: { ids: string[]; nav: BuilderNav }) {
  const suggestions = useQuery(boardQueries.suggestions());
  const accept = useAcceptSuggestions();
  return (
    <section className="stack" aria-labelledby="review-heading">
      <h2 id="review-heading">Review feed suggestions</h2>
      <ListState
        query={suggestions}
        loadingLabel="Loading suggestions"
        errorTitle="Suggestions could not be loaded"
        isEmpty={(list) => !list.some((s) => ids.includes(s.id))}
        emptyTitle="None of these suggestions is available any more"
      >
        {(list) => {
          const chosen = list.filter((s) => ids.includes(s.id));
          return (
            <>
              <ul className="suggestion-list">
                {chosen.map((s) => (
                  <li key={s.id} className="card stack">
                    <h3>{s.name}</h3>
                    {s.reason && <p className="small muted">{s.reason}</p>}
                    <DefinitionSummary definition={s.definition} />
                  </li>
                ))}
              </ul>
              <div className="feed-builder-actions">
                <button type="button" className="button" onClick={() => nav.go('feed-suggestion')}>
                  Back
                </button>
                <button
                  type="button"
                  className="button button-primary"
                  disabled={accept.isPending}
                  onClick={() => accept.mutate(chosen.map((s) => s.id), { onSuccess: (boards) => nav.done(boards[0]?.board_id ?? null) })}
                >
                  Add {chosen.length === 1 ? 'this feed' : `these ${chosen.length} feeds`}
                </button>
              </div>
            </>
          );
        }}
      </ListState>
    </section>
  );
}
