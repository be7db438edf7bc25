import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { boardQueries } from '../api/feeds-api';
import type { BuilderNav } from '../builder-pages';
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
                  {t.kind === 'organization' && <span className="badge">Your organization</span>}
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

