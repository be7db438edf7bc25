import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { REDUCED_MOTION_QUERY } from '../../../lib/media';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { CHAT_CARD_NOT_COMMENTABLE } from '../messages';
import { CardComments } from './card-comments';

const target = (source = 'needldrive'): CardActionTarget => ({
  deeplink: 'd1',
  source,
  title: 'Quarterly review',
  link: null,
  excerpt: null,
  previewPath: '/preview/channels/d1?source=needldrive',
});

const channel = (publish = false) =>
  json(200, {
    channel: {
      id: 'c1', name: 'desk', role: 'owner', member: true, publish,
      organization: { id: 1, domain: '', name: '' }, publish_title: 'your', show_publish_option: false,
      singlefeed: false, needl_feed: false, starred: false, last_seen: null, member_count: 2, board_count: 0,
      created_by: 'me', created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z',
      members: [
        { user_id: 'me', username: 'ada', role: 'owner', added_at: '2025-01-01T00:00:00Z' },
        { user_id: 'u2', username: 'bob', role: 'member', added_at: '2025-01-01T00:00:00Z' },
      ],
    },
  });

const comment = (text: string, mentions: unknown[] = [], id = 'm1') => ({
  comment_id: id, channel_id: 'c1', channel_name: 'desk', deeplink: 'd1', document_title: 'Quarterly review',
  user_id: 'me', username: 'ada', comment: text, mentions, created_at: '2025-01-01T00:00:00Z', edited_at: null,
  can_edit: true, can_delete: true,
});

const common = (thread: unknown[] = []) => ({
  'GET /api/feature/config': () => json(200, { features: { comments: true } }),
  'GET /api/user': () => json(200, { id: 'me', email_id: 'a@x', username: 'ada', industry: null, profession: null, whatsapp_number: null }),
  'GET /api/channels/c1': () => channel(),
  'GET /api/channels/c1/comments/d1/count': () => json(200, { results: { count: thread.length, unseen: 1 } }),
  'GET /api/channels/c1/comments/d1': () => json(200, { results: thread, count: thread.length }),
  'PUT /api/channels/c1/comments/d1/last_seen': () => json(200, { results: { last_seen: null, unseen: 0 } }),
});

const renderCard = (source?: string, channelId: string | null = 'c1') =>
  renderWithProviders(
    <CardScopeProvider value={{ channelId }}>
      <CardComments target={target(source)} />
    </CardScopeProvider>,
    { route: '/channels/c1' },
  );

describe('comments on a card', () => {
  it('are not offered outside a group', () => {
    stubApi(common());
    renderCard('needldrive', null);
    expect(screen.queryByRole('button', { name: /^Comments/ })).not.toBeInTheDocument();
  });

  it('show the count, and opening the thread records the visit; a comment with a mention is sent', async () => {
    const calls = stubApi({
      ...common(),
      'POST /api/channels/c1/comments/d1': () => json(200, { results: comment('hi @bob', [{ mention_uuid: 'u2', mention_value: 'bob' }]) }),
    });
    renderCard();
    const button = await screen.findByRole('button', { name: 'Comments on Quarterly review: 0, 1 new' });
    await userEvent.click(button);
    const thread = await screen.findByRole('region', { name: 'Comments on Quarterly review' });
    await within(thread).findByText('No comments yet.');
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('PUT /api/channels/c1/comments/d1/last_seen'));
    const box = within(thread).getByRole('textbox', { name: 'Comment on Quarterly review' });
    await userEvent.type(box, 'hi @b');
    await userEvent.keyboard('{Enter}{Enter}');
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /api/channels/c1/comments/d1')?.body).toEqual({ comment: 'hi @bob', mentions: ['u2'] }),
    );
    expect(await within(thread).findByText('@bob')).toHaveClass('mention');
  });

  it('say that cards from chats cannot be commented upon', async () => {
    stubApi(common());
    renderCard('slack');
    await userEvent.click(await screen.findByRole('button', { name: /^Comments on/ }));
    expect(await screen.findByText(CHAT_CARD_NOT_COMMENTABLE)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('edit in place, and Escape discards the edit', async () => {
    const calls = stubApi(common([comment('original')]));
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: /^Comments on/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit your comment' }));
    const box = screen.getByRole('textbox', { name: 'Edit your comment' });
    await userEvent.type(box, ' changed{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your comment' })).not.toBeInTheDocument();
    expect(screen.getByText('original')).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('PUT /api/channels/c1/comments/d1/m1'))).toBe(false);
  });

  describe('linked from a notification', () => {
    const scrolled = vi.fn();
    const renderLinked = () =>
      renderWithProviders(
        <CardScopeProvider value={{ channelId: 'c1', openComments: true, linkedCommentId: 'm2' }}>
          <CardComments target={target()} />
        </CardScopeProvider>,
        { route: '/preview/channels/d1?source=needldrive&channel_id=c1&comments=true&comment_id=m2' },
      );
    const reducedMotion = (reduce: boolean) =>
      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: reduce && query === REDUCED_MOTION_QUERY, addEventListener: () => {}, removeEventListener: () => {} })),
      );

    beforeEach(() => {
      scrolled.mockReset();
      Element.prototype.scrollIntoView = scrolled;
    });
    afterEach(() => vi.unstubAllGlobals());

    it('open with the linked comment marked as the current one, scrolled to and focused', async () => {
      reducedMotion(false);
      stubApi(common([comment('first'), comment('see this @ada', [], 'm2')]));
      renderLinked();
      const thread = await screen.findByRole('region', { name: 'Comments on Quarterly review' });
      expect(screen.getByRole('button', { name: /^Comments on/ })).toHaveAttribute('aria-expanded', 'true');
      const linked = await within(thread).findByRole('listitem', { name: 'Comment by ada, the one you were linked to' });
      expect(linked).toHaveAttribute('aria-current', 'true');
      expect(linked).toHaveClass('comment-linked');
      expect(linked).toHaveTextContent('see this @ada');
      await waitFor(() => expect(linked).toHaveFocus());
      expect(scrolled).toHaveBeenCalledWith({ block: 'center', behavior: 'smooth' });
      const others = within(thread).getAllByRole('listitem').filter((item) => item !== linked);
      others.forEach((item) => expect(item).not.toHaveAttribute('aria-current'));
    });

    it('scroll at once when the user asks for less motion', async () => {
      reducedMotion(true);
      stubApi(common([comment('see this', [], 'm2')]));
      renderLinked();
      await screen.findByRole('listitem', { name: /linked to$/ });
      expect(scrolled).toHaveBeenCalledWith({ block: 'center', behavior: 'auto' });
    });
  });
});
