import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { userQueries } from '../../../lib/queries/user-queries';
import { channelQueries } from '../api/channel-api';
import { isUnread } from '../unread';
import { StarIcon } from '../../../components/ui/icons';

/**
 * The groups under "Groups" in the side navigation: starred first, then by name, each marked
 * when starred and when it changed since the user last looked. `onNavigate` lets the shell close
 * the navigation on small screens.
 */
export function ChannelNavList({ linkTo = (path) => path, onNavigate }: { linkTo?: (path: string) => string; onNavigate?: () => void }) {
  const channels = useQuery(channelQueries.list());
  const self = useQuery(userQueries.profile()).data?.id ?? null;
  if (!channels.data || channels.data.length === 0) return null;
  return (
    <ul className="side-nav-list side-nav-groups" aria-label="Groups">
      {channels.data.map((channel) => {
        const unread = isUnread(channel, self);
        return (
          <li key={channel.id}>
            <NavLink
              to={linkTo(`/channels/${encodeURIComponent(channel.id)}`)}
              className="side-nav-link side-nav-link-nested side-nav-group"
              data-testid="nav-group"
              onClick={onNavigate}
            >
              {channel.starred && (
                <StarIcon className="nav-star" size={14} fill="currentColor" role="img" aria-label="Starred" />
              )}
              <span className="side-nav-group-name">{channel.name}</span>
              {unread && <span className="unread-dot" role="img" aria-label="New activity" />}
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}
