/**
 * Whether a group has changed since the user last looked at it. The channel list gives when the
 * group itself last changed (members, feeds, its name) and the user's last visit; a group the
 * user never opened is new to them unless they made it.
 */
import type { Channel } from './api/channel-api';

export function isUnread(channel: Pick<Channel, 'last_seen' | 'updated_at' | 'created_by'>, selfId: string | null): boolean {
  if (!channel.last_seen) return channel.created_by !== selfId;
  return Date.parse(channel.updated_at) > Date.parse(channel.last_seen);
}
