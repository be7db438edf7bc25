import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Popover } from '../../../components/ui/popover';
import { Spinner } from '../../../components/ui/spinner';
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
      triggerLabel={`Add ${target.title} to a group`}
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
  if (channels.isPending) return <Spinner label="Loading groups" />;
  if (channels.isError) return <p className="field-error">Groups could not be loaded.</p>;
  const choices = channels.data.filter((c) => c.id !== exclude);
  if (choices.length === 0) {
    return (
      <p className="small muted">
        No groups yet. <Link to={`/settings/channels/${encodeURIComponent(CREATE_GROUP)}`}>Create a group</Link>
      </p>
    );
  }
  return (
    <ul className="group-choices" aria-label="Groups">
      {choices.map((channel) => {
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
  );
}
