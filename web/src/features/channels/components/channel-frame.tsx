import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { channelQueries } from '../api/channel-api';
import { useMarkChannelSeen } from '../hooks/use-channel-mutations';
import { StarToggle } from './star-toggle';
import { ViewTabs } from './view-tabs';

const enc = encodeURIComponent;

/**
 * A group's pages around their content: the group's facts, its star, the tabs (documents,
 * comments, shared tags) and a link to its settings. Opening a group records the user's visit.
 * A group that does not exist, or is not the user's, shows as not found.
 */
export function ChannelFrame({ channelId, children }: { channelId: string; children: ReactNode }) {
  const channel = useQuery(channelQueries.info(channelId));
  const seen = useMarkChannelSeen();
  const markSeen = seen.mutate;
  const found = channel.isSuccess;

  useEffect(() => {
    if (found) markSeen(channelId);
  }, [found, channelId, markSeen]);

  if (channel.isPending) return <Spinner label="Loading the group" />;
  if (channel.isError) {
    const missing = isApiError(channel.error) && channel.error.status === 404;
    return (
      <EmptyState title={missing ? 'Group not found' : 'The group could not be loaded'}>
        {missing ? (
          <p>
            It does not exist, or you are not one of its members. <Link to="/channels">See your groups</Link>
          </p>
        ) : (
          <button type="button" className="button" onClick={() => void channel.refetch()}>
            Try again
          </button>
        )}
      </EmptyState>
    );
  }
  const c = channel.data;
  const base = `/channels/${enc(channelId)}`;
  return (
    <div className="page-narrow stack-lg channel-page">
      <div className="channel-bar">
        <div className="channel-facts">
          <StarToggle channelId={c.id} name={c.name} starred={c.starred} />
          <span className="small muted">
            {c.member_count} {c.member_count === 1 ? 'member' : 'members'}
            {c.publish ? ` · published to ${c.publish_title === 'your' ? 'your organization' : c.publish_title}` : ''}
            {c.role === 'owner' ? ' · you own this group' : ''}
          </span>
        </div>
        <Link className="button button-quiet" to={`/settings/channels/${enc(channelId)}`}>
          Group settings
        </Link>
      </div>
      <ViewTabs
        label="Group views"
        tabs={[
          { to: base, label: 'Documents', end: true },
          { to: `${base}/comments`, label: 'Comments' },
          { to: `${base}/tags`, label: 'Shared tags' },
        ]}
      />
      {children}
    </div>
  );
}
