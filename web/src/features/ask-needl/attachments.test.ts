import { describe, expect, it } from 'vitest';
import { askButtonState } from './ask-button-rules';
import { canAttach, countRefusal } from './attachments';
import { scopeFromLocation, suggestionSlot } from './scope';

describe('attachment rules', () => {
  const rules = { uploadFlag: true, webSearch: false, hasMessages: false, attachments: [] };

  it('allows files only with the upload flag, off web search, and while uploads are done', () => {
    expect(canAttach(rules)).toBe(true);
    expect(canAttach({ ...rules, uploadFlag: undefined })).toBe(false);
    expect(canAttach({ ...rules, webSearch: true })).toBe(false);
    expect(canAttach({ ...rules, attachments: [{ status: 'PROCESSING' }] })).toBe(false);
    expect(canAttach({ ...rules, hasMessages: true })).toBe(false);
    expect(canAttach({ ...rules, hasMessages: true, attachments: [{ status: 'COMPLETED' }] })).toBe(true);
  });

  it('counts the files already attached against the limit', () => {
    expect(countRefusal(2, 1, 3)).toBeNull();
    expect(countRefusal(2, 2, 3)).toBe('You can only upload 3 files at a time');
    expect(countRefusal(9, 9, null)).toBeNull();
  });
});

describe('the floating Ask button', () => {
  const at = (pathname: string, over = {}) => askButtonState({ pathname, copilot: true, overlayOpen: false, ...over });

  it('is hidden while the flag loads or is off, and on the spec pages', () => {
    expect(at('/feeds/home', { copilot: undefined })).toBe('hidden');
    expect(at('/feeds/home', { copilot: false })).toBe('hidden');
    for (const path of ['/settings/user-settings', '/notebooks', '/managers/assistants', '/report/1', '/needlbox/needldrive', '/ask-needl/full']) {
      expect(at(path)).toBe('hidden');
    }
  });

  it('is disabled on bookmarks, tags, comments, app sources and connect pages, and enabled on feeds', () => {
    for (const path of ['/needlbox/bookmarks/all', '/needlbox/tags/all', '/needlbox/comments/all', '/apps/needldrive', '/connect/rss']) {
      expect(at(path)).toBe('disabled');
    }
    expect(at('/feeds/home')).toBe('enabled');
    expect(at('/search')).toBe('enabled');
  });

  it('stays while the overlay is open, enabled so it can close it, also where asking is disabled', () => {
    const open = { overlayOpen: true };
    expect(at('/feeds/home', open)).toBe('enabled');
    expect(at('/connect/rss', open)).toBe('enabled');
    expect(at('/apps/needldrive', open)).toBe('enabled');
    expect(at('/settings/user-settings', open)).toBe('hidden');
    expect(at('/needlbox/needldrive', open)).toBe('hidden');
  });
});

describe('the scope of a question', () => {
  it('follows channel_id, then board_id, then the page, else home', () => {
    expect(scopeFromLocation('/feeds/home', new URLSearchParams('channel_id=c1'))).toMatchObject({ type: 'feed', id: 'c1', channel_id: 'c1' });
    expect(scopeFromLocation('/search', new URLSearchParams('board_id=b1'))).toMatchObject({ type: 'feed', id: 'b1', board_id: 'b1' });
    expect(scopeFromLocation('/preview/apps/doc-9', new URLSearchParams('source=needldrive'))).toEqual({ type: 'document', id: 'doc-9' });
    expect(scopeFromLocation('/feeds/home/drives', new URLSearchParams())).toEqual({ type: 'feed', id: 'home' });
  });

  it('suggests four questions over everything, two over a feed, none over a document', () => {
    expect(suggestionSlot({ type: 'feed', id: 'home' })).toEqual({ key: 'all', count: 4 });
    expect(suggestionSlot({ type: 'feed', id: 'b1' })).toEqual({ key: 'feed', count: 2 });
    expect(suggestionSlot({ type: 'document', id: 'd' })).toEqual({ key: 'document', count: 0 });
  });
});
