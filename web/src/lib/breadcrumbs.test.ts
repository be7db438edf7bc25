import { buildBreadcrumbs, pageTitle } from './breadcrumbs';

describe('buildBreadcrumbs', () => {
  it('starts at Home and gives one crumb per segment, the last without a link', () => {
    expect(buildBreadcrumbs('/notebooks/abc')).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Notebooks', to: '/notebooks' },
      { label: 'Abc' },
    ]);
  });

  it('labels channels as Groups, members as Members and feeds as Feeds, skipping settings', () => {
    expect(buildBreadcrumbs('/settings/channels/c1/members')).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Groups', to: '/settings/channels' },
      { label: 'C1', to: '/settings/channels/c1' },
      { label: 'Members' },
    ]);
    expect(buildBreadcrumbs('/settings/channels/c1/feeds').at(-1)).toEqual({ label: 'Feeds' });
  });

  it('shows only Home, unlinked, on the root', () => {
    expect(buildBreadcrumbs('/')).toEqual([{ label: 'Home' }]);
  });

  it('names the tags manager', () => {
    expect(buildBreadcrumbs('/settings/manage-tags').at(-1)).toEqual({ label: 'Tags Manager' });
  });
});

describe('pageTitle', () => {
  it('uses the spec titles for known areas', () => {
    expect(pageTitle('/feeds/home')).toBe('My Data');
    expect(pageTitle('/search/today')).toBe('Search');
    expect(pageTitle('/notifications')).toBe('Notifications');
    expect(pageTitle('/ask-needl/full')).toBe('AskNeedl');
  });
  it('titles the drive, storage and website pages', () => {
    expect(pageTitle('/apps/needldrive')).toBe('Needl Drive');
    expect(pageTitle('/settings/storage')).toBe('Storage');
    expect(pageTitle('/connect/website')).toBe('Follow a website');
    expect(pageTitle('/connect/website/followed')).toBe('Followed websites');
    expect(buildBreadcrumbs('/connect/website/followed').map((c) => c.label)).toEqual(['Home', 'Connect', 'Websites', 'Followed']);
  });
  it('titles the suggested feeds and the drive wherever it opens', () => {
    expect(pageTitle('/connect/rssTopics')).toBe('Suggested feeds');
    expect(buildBreadcrumbs('/connect/rssTopics').at(-1)).toEqual({ label: 'Suggested feeds' });
    expect(pageTitle('/connect/public')).toBe('Public sources');
    expect(buildBreadcrumbs('/connect/public').map((c) => c.label)).toEqual(['Home', 'Connect', 'Public sources']);
    expect(pageTitle('/connect/edgar')).toBe('SEC filings');
    expect(buildBreadcrumbs('/connect/edgar').map((c) => c.label)).toEqual(['Home', 'Connect', 'SEC filings']);
    expect(pageTitle('/needlbox/needldrive')).toBe('Needl Drive');
    expect(pageTitle('/apps/needldrive/documents')).toBe('Needl Drive');
    expect(pageTitle('/feeds/home/rss_news')).toBe('My Data');
    expect(buildBreadcrumbs('/feeds/home/rss_news').map((c) => c.label)).toEqual(['Home', 'Feeds', 'My Data', 'Rss news']);
  });
  it('titles the bookmarks and tags pages', () => {
    expect(pageTitle('/needlbox/bookmarks/all')).toBe('Bookmarks');
    expect(pageTitle('/needlbox/tags/all')).toBe('Tags');
    expect(pageTitle('/settings/manage-tags')).toBe('Tags Manager');
  });
  it('titles the comments view, and names a group from the labels given', () => {
    expect(pageTitle('/needlbox/comments/all')).toBe('Comments');
    expect(pageTitle('/channels/c1', { c1: 'Credit desk' })).toBe('Credit desk');
    expect(pageTitle('/settings/channels/create%20group', { 'create group': 'Create group' })).toBe('Create group');
  });
  it('falls back to the last segment', () => {
    expect(pageTitle('/needlbox/clips/all')).toBe('All');
  });

  it('names the audit log and an aggregate’s history, and not by their ids', () => {
    expect(buildBreadcrumbs('/settings/audit/history')).toEqual([
      { label: 'Home', to: '/' },
      { label: 'Audit log', to: '/settings/audit' },
      { label: 'History' },
    ]);
    expect(pageTitle('/settings/audit')).toBe('Audit log');
    expect(pageTitle('/settings/audit/history')).toBe('History');
  });
});
