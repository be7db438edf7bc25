import type { Notification } from './api/notification-api';
import { badgeLabel, notificationLink, notificationText } from './notification-text';

const mention: Notification = {
  id: '42',
  type: 'mention',
  read: false,
  created_at: '2025-01-01T10:00:00Z',
  actor: { user_id: 'u1', username: 'alice' },
  channel: { id: 'c1', name: 'Ports' },
  document: { deeplink: 'memo-1', title: 'Harbour memo', source: 'needldrive', access_key: 'k1' },
  comment_id: 'cm1',
  source: null,
  excerpt: 'Bob, see this',
};

describe('badgeLabel', () => {
  it('shows nothing for none, the count up to 99, and 99+ past it', () => {
    expect(badgeLabel(0)).toBe('');
    expect(badgeLabel(7)).toBe('7');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
    expect(badgeLabel(12345)).toBe('99+');
  });
});

describe('notificationText and notificationLink', () => {
  it('says who mentioned the user where, and opens the comment on its document in the channel', () => {
    expect(notificationText(mention)).toBe('alice mentioned you in Ports');
    const link = new URL(notificationLink(mention)!, 'http://x');
    expect(link.pathname).toBe('/preview/channels/memo-1');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      source: 'needldrive',
      access_key: 'k1',
      channel_id: 'c1',
      comments: 'true',
      comment_id: 'cm1',
    });
  });

  it('names a comment’s document, and leads to the channel when the document is not the user’s to read', () => {
    expect(notificationText({ ...mention, type: 'comment' })).toBe('alice commented on Harbour memo in Ports');
    expect(notificationLink({ ...mention, type: 'comment', document: null })).toBe('/channels/c1');
  });

  it('tells of a new item of a high-priority source, and of the reserved kinds', () => {
    const item: Notification = {
      ...mention,
      type: 'source_item',
      actor: null,
      channel: null,
      comment_id: null,
      source: { id: 's1', label: 'Wire' },
      document: { deeplink: 'w1', title: 'Rates held', source: 's1', access_key: 'k' },
    };
    expect(notificationText(item)).toBe('New in Wire: Rates held');
    expect(notificationLink(item)).toBe('/preview/feeds/w1?source=s1&access_key=k');
    expect(notificationText({ ...item, type: 'report_ready' })).toBe('Your report is ready');
  });

  it('tells of a feed’s new match and of its digest, and leads a digest to the feed', () => {
    const match: Notification = {
      ...mention,
      type: 'feed_match',
      actor: null,
      channel: null,
      comment_id: null,
      feed: { id: 'b1', label: 'Inflation' },
      excerpt: 'Rates held and 2 more',
      document: { deeplink: 'w1', title: 'Rates held', source: 's1', access_key: 'k' },
    };
    expect(notificationText(match)).toBe('New in your feed Inflation: Rates held and 2 more');
    expect(notificationLink(match)).toBe('/preview/feeds/w1?source=s1&access_key=k');
    const digest: Notification = { ...match, type: 'feed_digest' };
    expect(notificationText(digest)).toBe('Today in Inflation: Rates held and 2 more');
    expect(notificationLink(digest)).toBe('/feeds/b1');
  });

  it('tells that a summary of a document is ready, and leads to the document', () => {
    const ready: Notification = {
      ...mention,
      type: 'summary_ready',
      actor: null,
      channel: null,
      comment_id: null,
      excerpt: 'Harbour memo',
    };
    expect(notificationText(ready)).toBe('Your summary of Harbour memo is ready');
    expect(notificationLink(ready)).toBe('/preview/feeds/memo-1?source=needldrive&access_key=k1');
    expect(notificationText({ ...ready, document: null })).toBe('Your summary is ready');
  });
});
