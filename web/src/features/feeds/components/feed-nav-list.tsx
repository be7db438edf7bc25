import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { featureQueries } from '../../../lib/queries/feature-queries';
import { boardQueries } from '../api/feeds-api';
import { useNewFeed } from '../hooks/use-new-feed';
import { NO_FEEDS } from '../messages';

/**
 * The user's feeds under "Feeds" in the side navigation (refreshed after 15 s), and a New feed
 * entry that opens the builder. With `is_pricing` only enabled feeds are listed (the server sends
 * only those; the list is filtered here too). Shown with the `my_feeds` flag.
 */
export function FeedNavList({ linkTo = (path) => path, onNavigate }: { linkTo?: (path: string) => string; onNavigate?: () => void }) {
  const flags = useQuery(featureQueries.config()).data?.features;
  const boards = useQuery({ ...boardQueries.list(), enabled: flags?.my_feeds === true });
  const { newFeed, plan } = useNewFeed();
  if (flags?.my_feeds !== true) return null;
  const pricing = flags.is_pricing === true;
  const shown = (boards.data ?? []).filter((b) => !pricing || b.enabled);
  return (
    <div className="side-nav-feeds">
      <ListState
        query={{ ...boards, data: boards.data ? shown : undefined }}
        compact
        loadingLabel="Loading feeds"
        errorTitle="Feeds could not be loaded"
        isEmpty={(list) => list.length === 0}
        emptyTitle={NO_FEEDS}
      >
        {(list) => (
          <ul className="side-nav-list side-nav-groups" aria-label="Feeds">
            {list.map((board) => (
              <li key={board.board_id}>
                <NavLink
                  to={linkTo(`/feeds/${encodeURIComponent(board.board_id)}`)}
                  className={`side-nav-link side-nav-link-nested side-nav-group${board.enabled ? '' : ' side-nav-disabled'}`}
                  data-testid="nav-feed"
                  onClick={onNavigate}
                >
                  <span className="side-nav-group-name">{board.board_name}</span>
                  {!board.enabled && <span className="small muted"> (off)</span>}
                  {board.isNew && <span className="badge">New</span>}
                </NavLink>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      <button
        type="button"
        className="side-nav-link side-nav-link-nested side-nav-new"
        disabled={plan.status === 'checking'}
        onClick={() => {
          // The drawer stays open under the pricing prompt: nothing was opened in its place.
          if (plan.status !== 'ineligible') onNavigate?.();
          newFeed();
        }}
      >
        + New feed
      </button>
    </div>
  );
}
