import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { applyLiveEvent, keysInvalidatedBy, refreshQueries } from './live-events';
import { documentKeys } from './queries/document-keys';
import { notebookKeys } from './queries/notebook-keys';
import { searchKeys } from './queries/search-keys';
import { sourceKeys } from './queries/source-keys';
import { userQueries } from './queries/user-queries';

describe('live events', () => {
  it('maps each known event type to the queries it makes stale', () => {
    expect(keysInvalidatedBy({ type: 'PreferencesChanged' })).toEqual([['user', 'preferences']]);
    expect(keysInvalidatedBy({ type: 'FeatureFlagSet' })).toEqual([['feature']]);
    expect(keysInvalidatedBy({ type: 'ProfileUpdated' })).toEqual([['user', 'profile']]);
    expect(keysInvalidatedBy({ type: 'OnboardingCompleted' })).toEqual([['user', 'status'], ['onboarding']]);
  });

  it('ignores event types it does not know', () => {
    expect(keysInvalidatedBy({ type: 'SomethingElseHappened' })).toEqual([]);
  });

  it('marks the preferences stale when preferences changed elsewhere', async () => {
    const client = new QueryClient();
    client.setQueryData(userQueries.preferences().queryKey, { nav_state: 'opened', askneedl_pro: false });
    client.setQueryData(userQueries.profile().queryKey, {
      id: 'u1',
      email_id: 'a@b.co',
      username: 'ann',
      industry: null,
      profession: null,
      whatsapp_number: null,
    });
    await applyLiveEvent(client, { cursor: '7', type: 'PreferencesChanged', ids: ['u1'] });
    expect(client.getQueryState(userQueries.preferences().queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(userQueries.profile().queryKey)?.isInvalidated).toBe(false);
  });

  it('makes document lists and the named documents stale when documents change', () => {
    expect(keysInvalidatedBy({ type: 'DocumentUpdated', ids: ['d1', 'd2'] })).toEqual([
      ['documents', 'list'],
      ['documents', 'detail', 'd1'],
      ['documents', 'detail', 'd2'],
    ]);
  });

  it("also makes My Data's counts stale when documents come or go", () => {
    for (const type of ['DocumentIngested', 'DocumentDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['d1'] })).toEqual([
        ['documents', 'list'],
        ['documents', 'detail', 'd1'],
        ['library'],
      ]);
    }
  });

  it('makes the read status and document queries stale when read state changes', () => {
    for (const type of ['DocumentMarkedRead', 'DocumentMarkedUnread']) {
      expect(keysInvalidatedBy({ type, ids: ['d1'] })).toEqual([
        ['documents', 'read-status'],
        ['documents', 'list'],
        ['documents', 'detail'],
      ]);
    }
  });

  it('makes the source lists stale when sources change', () => {
    for (const type of ['SourceFollowed', 'SourceUnfollowed', 'SourcePriorityChanged', 'SourceRegistered']) {
      expect(keysInvalidatedBy({ type, ids: ['rss_1'] })).toEqual([['sources'], ['library']]);
    }
  });

  it('makes upload statuses and document lists stale when an upload ends', () => {
    for (const type of ['UploadProcessed', 'UploadFailed', 'UploadRemoved']) {
      expect(keysInvalidatedBy({ type, ids: ['u1/f1'] })).toEqual([
        ['uploads', 'status'],
        ['documents', 'list'],
        ['library'],
      ]);
    }
  });

  it('makes the shelf and the notebook stale when a notebook changes (ids: user, notebook)', () => {
    for (const type of ['NotebookCreated', 'NotebookRenamed', 'NotebookDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['u1', 'b1'] })).toEqual([
        ['notebooks', 'list'],
        ['notebooks', 'detail', 'b1'],
      ]);
    }
  });

  it('makes the note, its notebook and the shelf stale when a note changes (ids: note, notebook)', () => {
    for (const type of ['NoteCreated', 'NoteEdited', 'NoteDeleted']) {
      expect(keysInvalidatedBy({ type, ids: ['n1', 'b1'] })).toEqual([
        ['notebooks', 'list'],
        ['notebooks', 'detail', 'b1'],
        ['notebooks', 'note', 'n1'],
      ]);
    }
  });

  it('leaves other notes alone when one note is edited elsewhere', async () => {
    const client = new QueryClient();
    client.setQueryData(notebookKeys.note('n1'), { version: 1 });
    client.setQueryData(notebookKeys.note('n2'), { version: 1 });
    await applyLiveEvent(client, { cursor: '8', type: 'NoteEdited', ids: ['n1', 'b1'] });
    expect(client.getQueryState(notebookKeys.note('n1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(notebookKeys.note('n2'))?.isInvalidated).toBe(false);
  });

  it('refetches only the document that was updated, not others', async () => {
    const client = new QueryClient();
    client.setQueryData(documentKeys.detail('d1', 'rss_1'), { results: [] });
    client.setQueryData(documentKeys.detail('d2', 'rss_1'), { results: [] });
    client.setQueryData(sourceKeys.rss(), { results: [] });
    await applyLiveEvent(client, { cursor: '9', type: 'DocumentUpdated', ids: ['d1'] });
    expect(client.getQueryState(documentKeys.detail('d1', 'rss_1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(documentKeys.detail('d2', 'rss_1'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(sourceKeys.rss())?.isInvalidated).toBe(false);
  });

  it('fetches a shown list again when its first fetch was still on its way as the event came', async () => {
    const client = new QueryClient();
    const answers: Array<(value: string) => void> = [];
    const observer = new QueryObserver<string>(client, {
      queryKey: documentKeys.list(null),
      queryFn: () => new Promise<string>((resolve) => answers.push(resolve)),
    });
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(answers).toHaveLength(1));

    const applied = applyLiveEvent(client, { cursor: '3', type: 'DocumentIngested', ids: ['d1'] });
    // The first answer was read before the document existed; it must not be the last word.
    answers[0]('empty list');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]('list with d1');
    await applied;
    await vi.waitFor(() => expect(client.getQueryData(documentKeys.list(null))).toBe('list with d1'));
    expect(client.getQueryState(documentKeys.list(null))?.isInvalidated).toBe(false);
    stop();
  });

  it('leaves alone a first fetch that nothing shows, such as a download', async () => {
    const client = new QueryClient();
    let answer!: (value: string) => void;
    const download = client.fetchQuery({
      queryKey: documentKeys.file('d1', 'needldrive'),
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    await refreshQueries(client);
    answer('the file');
    await expect(download).resolves.toBe('the file');
  });

  it('marks cached searches stale when documents change, without refetching the one on screen', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async () => 'page of results');
    const observer = new QueryObserver<string>(client, { queryKey: searchKeys.results(null, { q: 'tariffs' }), queryFn, staleTime: Infinity });
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(client.getQueryData(searchKeys.results(null, { q: 'tariffs' }))).toBe('page of results'));

    await applyLiveEvent(client, { cursor: '4', type: 'DocumentIngested', ids: ['d9'] });
    expect(client.getQueryState(searchKeys.results(null, { q: 'tariffs' }))?.isInvalidated).toBe(true);
    expect(queryFn).toHaveBeenCalledOnce();
    stop();
  });

  it('leaves searches alone for events that do not change what is found', async () => {
    const client = new QueryClient();
    client.setQueryData(searchKeys.categories(null, { q: 'x' }), { category_tabs: [] });
    await applyLiveEvent(client, { cursor: '5', type: 'DocumentMarkedRead', ids: ['d1'] });
    expect(client.getQueryState(searchKeys.categories(null, { q: 'x' }))?.isInvalidated).toBe(false);
  });
});
