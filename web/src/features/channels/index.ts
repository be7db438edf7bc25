/**
 * Channels feature (the spec's groups) and their comments: the groups in the side navigation
 * (starred first, marked when they changed since the last visit), a group's frame (star, tabs,
 * settings link; opening it records the visit), the group settings (`/settings/channels`, a
 * group's info, members and roles, publishing, shared feeds, and the pseudo group `create group`
 * with the spec's name rules), Add to group and the comment thread for document cards (handed
 * to them by the app through src/lib/card-actions; comments only on cards read in a group), and
 * the comment feeds (`/needlbox/comments/all`, a group's comments tab). Comments: Enter saves,
 * Shift+Enter adds a line, Escape discards an edit; @mentions of members in groups that are not
 * published. The app composes a group's documents with the documents feature's list.
 * It owns the calls under /channels and /comments; the query keys live in src/lib/queries
 * because the live socket invalidates them too.
 * The group pages are a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { channelListings, channelQueries, CREATE_GROUP, type Channel, type ChannelTag } from './api/channel-api';
export { CardComments } from './components/card-comments';
export { ChannelFrame } from './components/channel-frame';
export { ChannelNavList } from './components/channel-nav-list';
export { CommentFeed } from './components/comment-feed';
export { ShareToGroup } from './components/share-to-group';
export { useChannelLabels } from './hooks/use-channel-labels';
