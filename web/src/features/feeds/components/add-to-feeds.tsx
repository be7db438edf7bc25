import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { Popover } from '../../../components/ui/popover';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { featureQueries } from '../../../lib/queries/feature-queries';
import { boardQueries, type BoardSummary } from '../api/feeds-api';
import { sourceMode } from '../builder-state';
import { useAddToFeed } from '../hooks/use-add-to-feed';
import { NO_FEEDS } from '../messages';

/**
 * "Add to Feeds" on a card: the user's feeds, each ticked when it includes the card's source;
 * ticking one includes the source in that feed, unticking takes it out. Shown with `my_feeds`,
 * not on Needl Web results (their sources are not the user's).
 */
export function AddToFeeds({ target }: { target: CardActionTarget }) {
  const scope = useCardScope();
  const myFeeds = useQuery(featureQueries.config()).data?.features.my_feeds === true;
  const [open, setOpen] = useState(false);
  if (scope.webResult || !myFeeds) return null;
  return (
    <Popover
      trigger="Add to Feeds"
      triggerLabel={`Add to Feeds: the source of ${target.title}`}
      title={`Add the source of ${target.title} to feeds`}
      open={open}
      onOpenChange={setOpen}
      className="add-to-feeds"
    >
      <FeedChoices sourceId={target.source} />
    </Popover>
  );
}

function FeedChoices({ sourceId }: { sourceId: string }) {
  const boards = useQuery(boardQueries.list());
  return (
    <ListState
      query={boards}
      compact
      loadingLabel="Loading feeds"
      errorTitle="Feeds could not be loaded"
      isEmpty={(list) => list.length === 0}
      emptyTitle={NO_FEEDS}
    >
      {(list) => <FeedCheckboxes boards={list} sourceId={sourceId} />}
    </ListState>
  );
}

function FeedCheckboxes({ boards, sourceId }: { boards: BoardSummary[]; sourceId: string }) {
  const definitions = useQueries({ queries: boards.map((b) => boardQueries.definition(b.board_id)) });
  const add = useAddToFeed();
  /** The user's choices not yet confirmed by a saved definition, by feed. */
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  return (
    <fieldset className="feed-choices">
      <legend className="visually-hidden">Feeds</legend>
      <ul className="group-choices">
        {boards.map((board, i) => {
          const definition = definitions[i]?.data?.definition;
          const saved = definition ? sourceMode(definition, sourceId) === 'include' : false;
          const checked = chosen[board.board_id] ?? saved;
          const toggle = (on: boolean) => {
            setChosen((c) => ({ ...c, [board.board_id]: on }));
            add.mutate(
              { boardId: board.board_id, sourceId, on },
              {
                // Back as it was: the toast says it failed.
                onError: () => setChosen((c) => ({ ...c, [board.board_id]: !on })),
                // The saved definition says it from now on.
                onSuccess: () =>
                  setChosen((c) => {
                    const { [board.board_id]: _done, ...rest } = c;
                    return rest;
                  }),
              },
            );
          };
          return (
            <li key={board.board_id}>
              <label className="checkbox-row">
                <input type="checkbox" checked={checked} disabled={!definition} onChange={(e) => toggle(e.target.checked)} />
                {board.board_name}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
