import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { Spinner } from '../../../../components/ui/spinner';
import { isApiError } from '../../../../lib/api-client';
import { channelQueries, type Channel } from '../../api/channel-api';
import { ViewTabs } from '../view-tabs';

/** The settings pages of one group around their content: its tabs (info, members, feeds), or not found. */
export function GroupSettingsFrame({ channelId, children }: { channelId: string; children: (channel: Channel) => ReactNode }) {
  const channel = useQuery(channelQueries.info(channelId));
  if (channel.isPending) return <Spinner label="Loading the group" />;
  if (channel.isError) {
    const missing = isApiError(channel.error) && channel.error.status === 404;
    return (
      <EmptyState title={missing ? 'Group not found' : 'The group could not be loaded'}>
        {missing ? (
          <p>
            It does not exist, or you are not one of its members. <Link to="/settings/channels">See your groups</Link>
          </p>
        ) : (
          <button type="button" className="button" onClick={() => void channel.refetch()}>
            Try again
          </button>
        )}
      </EmptyState>
    );
  }
  const base = `/settings/channels/${encodeURIComponent(channelId)}`;
  return (
    <div className="page-narrow stack-lg group-settings">
      <div className="channel-bar">
        <h2 className="group-settings-title">{channel.data.name}</h2>
        <Link className="button button-quiet" to={`/channels/${encodeURIComponent(channelId)}`}>
          Open group
        </Link>
      </div>
      <ViewTabs
        label="Group settings"
        tabs={[
          { to: base, label: 'Info', end: true },
          { to: `${base}/members`, label: 'Members' },
          { to: `${base}/feeds`, label: 'Feeds' },
        ]}
      />
      {children(channel.data)}
    </div>
  );
}
