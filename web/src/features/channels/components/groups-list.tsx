import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { userQueries } from '../../../lib/queries/user-queries';
import { channelQueries, CREATE_GROUP, type Channel } from '../api/channel-api';
import { isUnread } from '../unread';
import { StarToggle } from './star-toggle';

export const CREATE_GROUP_PATH = `/settings/channels/${encodeURIComponent(CREATE_GROUP)}`;

/**
 * The user's groups, starred first: each opens the group (`/channels`) or its settings
 * (`/settings/channels`), with its role, members and whether it changed since the last visit.
 */
export function GroupsList({ to }: { to: 'group' | 'settings' }) {
  const channels = useQuery(channelQueries.list());
  const self = useQuery(userQueries.profile()).data?.id ?? null;
  const create = (
    <Link className="button button-primary" to={CREATE_GROUP_PATH}>
      Create group
    </Link>
  );
  return (
    <ListState
      query={channels}
      loadingLabel="Loading groups"
      errorTitle="Groups could not be loaded"
      isEmpty={(groups) => groups.length === 0}
      emptyTitle="No groups yet"
      emptyHint={<p>Groups share documents, tags and comments between people. {create}</p>}
    >
      {(groups) => (
        <div className="page-narrow stack-lg">
          <div className="channel-bar">
            <p className="muted">{groups.length === 1 ? '1 group' : `${groups.length} groups`}</p>
            {create}
          </div>
          <GroupRows groups={groups} to={to} self={self} />
        </div>
      )}
    </ListState>
  );
}

/** One row per group: its name, role, counts, whether it changed, and a link to the other side. */
function GroupRows({ groups, to, self }: { groups: Channel[]; to: 'group' | 'settings'; self: string | null }) {
  return (
    <ul className="group-list" aria-label="Your groups">
      {groups.map((c) => {
        const path = to === 'group' ? `/channels/${encodeURIComponent(c.id)}` : `/settings/channels/${encodeURIComponent(c.id)}`;
        return (
          <li key={c.id} className="card group-row" data-testid="group-row">
            <StarToggle channelId={c.id} name={c.name} starred={c.starred} />
            <div className="group-row-main">
              <Link to={path} className="group-row-name">
                {c.name}
              </Link>
              <p className="small muted">
                {c.role === 'owner' ? 'Owner' : 'Member'} · {c.member_count} {c.member_count === 1 ? 'member' : 'members'}
                {c.board_count > 0 ? ` · ${c.board_count} ${c.board_count === 1 ? 'feed' : 'feeds'}` : ''}
                {c.publish ? ' · published' : ''}
              </p>
            </div>
            {isUnread(c, self) && <span className="badge">New activity</span>}
            {to === 'group' ? (
              <Link className="button button-quiet" to={`/settings/channels/${encodeURIComponent(c.id)}`}>
                Settings<span className="visually-hidden"> of {c.name}</span>
              </Link>
            ) : (
              <Link className="button button-quiet" to={`/channels/${encodeURIComponent(c.id)}`}>
                Open<span className="visually-hidden"> {c.name}</span>
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
