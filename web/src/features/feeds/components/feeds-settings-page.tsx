import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
import { boardQueries } from '../api/feeds-api';
import { useNewFeed } from '../hooks/use-new-feed';
import { NO_FEEDS } from '../messages';
import { FeedSettingsRow } from './feed-settings-row';
import { FeedTemplatesSection } from './feed-templates-section';

/**
 * /settings/feeds and /settings/feeds/root: the user's feeds, each with its switch, rename,
 * duplicate, delete, share to a group, alerts and priority; for administrators, the templates
 * offered to everyone. `nav` is the settings tabs, drawn by the app.
 */
export function FeedsSettingsPage({ nav }: { nav?: ReactNode }) {
  const boards = useQuery(boardQueries.list());
  const { newFeed, plan } = useNewFeed();
  return (
    <div className="page-narrow stack-lg">
      {nav}
      <header className="page-header feeds-settings-header">
        <h2>Your feeds</h2>
        <button type="button" className="button button-primary" disabled={plan.status === 'checking'} onClick={newFeed}>
          New feed
        </button>
      </header>
      <ListState
        query={boards}
        loadingLabel="Loading feeds"
        errorTitle="Feeds could not be loaded"
        isEmpty={(list) => list.length === 0}
        emptyTitle={NO_FEEDS}
        emptyHint="Make a feed from keywords, companies or topics with New feed."
      >
        {(list) => (
          <ul className="feed-settings-list" aria-label="Your feeds">
            {list.map((board) => (
              <FeedSettingsRow key={board.board_id} board={board} />
            ))}
          </ul>
        )}
      </ListState>
      <FeedTemplatesSection />
    </div>
  );
}
