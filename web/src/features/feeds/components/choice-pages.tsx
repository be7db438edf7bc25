import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { serverMessage } from '../../../lib/api-client';
import { GENERIC_FAILURE } from '../../../lib/query-client';
import { boardQueries, type FeedDefinition } from '../api/feeds-api';
import type { BuilderNav } from '../builder-pages';
import { useAcceptSuggestions, useCreateBoard } from '../hooks/use-feed-mutations';
import type { AiFocus } from './feed-builder';

/** select-feed-type: a keyword feed, an AI feed, a template, or the suggestions. */
export function SelectFeedTypePage({ nav }: { nav: BuilderNav }) {
  const templates = useQuery(boardQueries.templates());
  return (
    <section className="stack-lg feed-type-page" aria-labelledby="feed-type-heading">
      <h2 id="feed-type-heading">New feed</h2>
      <ul className="choice-grid">
        <li>
          <button type="button" className="choice-card" onClick={() => nav.go('create-feed')}>
            <strong>Keyword feed</strong>
            <span className="small muted">Follow words and phrases, with AND, OR and NOT, across your sources.</span>
          </button>
        </li>
        <li>
          <button type="button" className="choice-card" onClick={() => nav.go('select-ai-feed-type')}>
            <strong>AI feed</strong>
            <span className="small muted">Follow companies and topics; documents are matched by their entities and meaning.</span>
          </button>
        </li>
        <li>
          <button type="button" className="choice-card" onClick={() => nav.go('feed-suggestion')}>
            <strong>Suggested feeds</strong>
            <span className="small muted">Feeds built from what you read, follow and tag.</span>
          </button>
        </li>
      </ul>
      <section aria-labelledby="templates-heading" className="stack">
        <h3 id="templates-heading">Start from a template</h3>
        <ListState
          query={templates}
          compact
          loadingLabel="Loading templates"
          errorTitle="Templates could not be loaded"
          isEmpty={(list) => list.length === 0}
          emptyTitle="No templates yet."
        >
          {(list) => (
            <ul className="template-list">
              {list.map((t) => (
                <li key={t.id}>
                  <button type="button" className="button button-quiet template-choice" onClick={() => nav.go('feed-template-readonly', { 'template-id': t.id })}>
                    {t.name}
                  </button>
                  {t.description && <span className="small muted"> {t.description}</span>}
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </section>
    </section>
  );
}

/** select-ai-feed-type: what the AI feed follows first. */
export function SelectAiFeedTypePage({ onChoose }: { onChoose: (focus: AiFocus) => void }) {
  return (
    <section className="stack-lg" aria-labelledby="ai-type-heading">
      <h2 id="ai-type-heading">Select AI feed type</h2>
      <ul className="choice-grid">
        <li>
          <button type="button" className="choice-card" onClick={() => onChoose('companies')}>
            <strong>Companies</strong>
            <span className="small muted">Filings, news and calls about the companies you name (by name, ISIN, codes and aliases).</span>
          </button>
        </li>
        <li>
          <button type="button" className="choice-card" onClick={() => onChoose('topics')}>
            <strong>Topics</strong>
            <span className="small muted">Results, M&amp;A, ratings actions, management changes and more, wherever they appear.</span>
          </button>
        </li>
      </ul>
    </section>
  );
}

/** A definition's rules in words, read only. */
function DefinitionSummary({ definition }: { definition: FeedDefinition }) {
  const include = definition.keywords.include.map((k) => k.keyword);
  const exclude = definition.keywords.exclude.map((k) => k.keyword);
  return (
    <dl className="definition-summary">
      {include.length > 0 && (
        <>
          <dt>Includes</dt>
          <dd>{include.join(' · ')}</dd>
        </>
      )}
      {exclude.length > 0 && (
        <>
          <dt>Excludes</dt>
          <dd>{exclude.join(' · ')}</dd>
        </>
      )}
      {definition.companies.length > 0 && (
        <>
          <dt>Companies</dt>
          <dd>{definition.companies.map((c) => c.name).join(' · ')}</dd>
        </>
      )}
      {definition.date_range && (
        <>
          <dt>Published within</dt>
          <dd>{definition.date_range}</dd>
        </>
      )}
    </dl>
  );
}

/** feed-template-readonly: a template as it is; create it as is, or customize it first. */
export function TemplateReadonlyPage({ templateId, nav }: { templateId?: string; nav: BuilderNav }) {
  const templates = useQuery(boardQueries.templates());
  const create = useCreateBoard();
  return (
    <ListState
      query={templates}
      loadingLabel="Loading the template"
      errorTitle="Templates could not be loaded"
      isEmpty={(list) => !list.some((t) => t.id === templateId)}
      emptyTitle="This template is not available"
    >
      {(list) => {
        const t = list.find((x) => x.id === templateId)!;
        return (
          <section className="stack" aria-labelledby="template-heading">
            <h2 id="template-heading">{t.name}</h2>
            {t.description && <p className="muted">{t.description}</p>}
            <DefinitionSummary definition={t.definition} />
            {create.error && (
              <p className="form-error" role="alert">
                {serverMessage(create.error) ?? GENERIC_FAILURE}
              </p>
            )}
            <div className="feed-builder-actions">
              <button type="button" className="button" onClick={() => nav.go('feed-template-customize', { 'template-id': t.id })}>
                Customize
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={create.isPending}
                onClick={() =>
                  create.mutate(
                    { definition: { ...t.definition, name: t.definition.name || t.name } },
                    { onSuccess: (board) => nav.done(board.board_id) },
                  )
                }
              >
                Create this feed
              </button>
            </div>
          </section>
        );
      }}
    </ListState>
  );
}

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
