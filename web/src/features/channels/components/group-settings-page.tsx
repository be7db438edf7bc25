import { useParams } from 'react-router';
import { CREATE_GROUP } from '../api/channel-api';
import { CreateGroupForm } from './settings/create-group-form';
import { GroupFeeds } from './settings/group-feeds';
import { GroupInfo } from './settings/group-info';
import { GroupMembers } from './settings/group-members';
import { GroupSettingsFrame } from './settings/group-settings-frame';
import { GroupsList } from './groups-list';

/** `/settings/channels`: the user's groups, each leading to its settings. */
export function GroupsSettingsPage() {
  return <GroupsList to="settings" />;
}

/** `/channels`: the user's groups, each leading to its documents. */
export function GroupsPage() {
  return <GroupsList to="group" />;
}

/**
 * `/settings/channels/{channelId}` and its `/members` and `/feeds` tabs; the pseudo id
 * `create group` is the form that makes a new group.
 */
export function GroupSettingsPage({ tab = 'info' }: { tab?: 'info' | 'members' | 'feeds' }) {
  const { channelId = '' } = useParams();
  if (channelId === CREATE_GROUP) {
    return (
      <div className="page-narrow">
        <CreateGroupForm />
      </div>
    );
  }
  return (
    <GroupSettingsFrame key={channelId} channelId={channelId}>
      {(channel) =>
        tab === 'members' ? <GroupMembers channel={channel} /> : tab === 'feeds' ? <GroupFeeds channel={channel} /> : <GroupInfo channel={channel} />
      }
    </GroupSettingsFrame>
  );
}
