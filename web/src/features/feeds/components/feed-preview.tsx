import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { dateLine, formatCount } from '../../../lib/format';
import { boardQueries, type FeedDefinition } from '../api/feeds-api';
import { hasSomethingToFollow } from '../builder-state';
import { useDebounced } from '../../../lib/use-debounced';
import { NOTHING_TO_FOLLOW } from '../messages';

/** How long the draft must stay unchanged before its matches are asked for. */
export const PREVIEW_DEBOUNCE_MS = 500;

/**
 * What the draft matches, asked again when it has been still for a moment: the count and the
 * first results. Nothing is stored. A draft without a name is previewed under a stand-in one.
 */
export function FeedPreview({ definition }: { definition: FeedDefinition }) {
  const draft = useDebounced(definition, PREVIEW_DEBOUNCE_MS);
  const ready = hasSomethingToFollow(draft);
  const preview = useQuery({
    ...boardQueries.preview({ ...draft, name: draft.name.trim() || 'Preview' }),
    enabled: ready,
  });
  return (
    <section className="feed-preview card" aria-labelledby="feed-preview-heading" aria-live="polite" aria-busy={ready && preview.isFetching}>
      <h3 id="feed-preview-heading">Preview</h3>
      {!ready ? (
        <p className="small muted">{NOTHING_TO_FOLLOW}</p>
      ) : (
        <ListState
          query={preview}
          compact
          loadingLabel="Finding matches"
          errorTitle="The preview could not be loaded"
          isEmpty={(data) => data.count === 0}
          emptyTitle="Nothing matches yet."
          emptyHint="Try fewer or broader keywords."
        >
          {(data) => (
            <>
              <p className="small" data-testid="preview-count">
                {formatCount(data.count)} {data.count === 1 ? 'match' : 'matches'}
              </p>
              <ul className="feed-preview-list" aria-label="First matches">
                {data.results.map((doc) => (
                  <li key={doc.deeplink} className="feed-preview-item">
                    <span className="feed-preview-title">{doc.title}</span>
                    <span className="small muted">
                      {doc.source_label ?? ''} {doc.published_at ? `· ${dateLine(doc.published_at)}` : ''}
                      {doc.story && doc.story.size > 1 ? ` · +${doc.story.size - 1} sources` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </ListState>
      )}
    </section>
  );
}
