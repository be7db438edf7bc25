import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Popover } from '../../../components/ui/popover';
import { ListState } from '../../../components/ui/list-state';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { channelQueries, CREATE_GROUP } from '../api/channel-api';
import { useShareItem } from '../hooks/use-channel-mutations';

/**
 * "Add to group" on a card: a list of the user's groups (not the one the card is read in);
 * picking one shares the document into it. Not on Needl Web results: they are not the user's.
 */
export function ShareToGroup({ target }: { target: CardActionTarget }) {
  const scope = useCardScope();
  const [open, setOpen] = useState(false);
  if (scope.webResult) return null;
  return (
    <Popover
      trigger="Add to group"
      triggerLabel={`Add to group: ${target.title}`}
      title={`Add ${target.title} to a group`}
      open={open}
      onOpenChange={setOpen}
      className="share-to-group"
    >
      <GroupChoices deeplink={target.deeplink} exclude={scope.channelId ?? null} />
    </Popover>
  );
}

function GroupChoices({ deeplink, exclude }: { deeplink: string; exclude: string | null }) {
  const channels = useQuery(channelQueries.list());
  const share = useShareItem();
  const [shared, setShared] = useState<ReadonlySet<string>>(new Set());
  return (
    <ListState
      query={channels}
      compact
      loadingLabel="Loading groups"
      errorTitle="Groups could not be loaded"
      isEmpty={(list) => list.every((c) => c.id === exclude)}
      emptyTitle="No groups yet."
      emptyHint={<Link to={`/settings/channels/${encodeURIComponent(CREATE_GROUP)}`}>Create a group</Link>}
    >
      {(list) => (
        <ul className="group-choices" aria-label="Groups">
          {list
            .filter((c) => c.id !== exclude)
            .map((channel) => {
              const done = shared.has(channel.id);
              return (
                <li key={channel.id}>
                  <button
                    type="button"
                    className="button button-quiet group-choice"
                    disabled={done || (share.isPending && share.variables?.channelId === channel.id)}
                    onClick={() =>
                      share.mutate(
                        { channelId: channel.id, deeplink },
                        { onSuccess: () => setShared((s) => new Set(s).add(channel.id)) },
                      )
                    }
                  >
                    {channel.name}
                    {done && <span className="small muted"> — shared</span>}
                  </button>
                </li>
              );
            })}
        </ul>
      )}
    </ListState>
  );
}
