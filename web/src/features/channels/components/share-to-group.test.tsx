import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { ShareToGroup } from './share-to-group';

const target: CardActionTarget = {
  deeplink: 'd1',
  source: 'needldrive',
  title: 'Quarterly review',
  link: null,
  excerpt: null,
  previewPath: '/preview/apps/d1?source=needldrive',
};

const group = (id: string, name: string) => ({
  id, name, role: 'member', member: true, publish: false, organization: { id: 1, domain: '', name: '' },
  publish_title: 'your', show_publish_option: false, singlefeed: false, needl_feed: false, starred: false,
  last_seen: null, member_count: 2, board_count: 0, created_by: 'x', created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});

describe('Add to group', () => {
  it('shares the document into the group picked, leaving out the group the card is read in', async () => {
    const calls = stubApi({
      'GET /api/channels': () => json(200, { channels: [group('c1', 'desk'), group('c2', 'credit')] }),
      'POST /api/channels/c2/items': () => json(200, { results: {} }),
    });
    renderWithProviders(
      <CardScopeProvider value={{ channelId: 'c1' }}>
        <ShareToGroup target={target} />
      </CardScopeProvider>,
      { route: '/channels/c1' },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add to group: Quarterly review' }));
    const credit = await screen.findByRole('button', { name: 'credit' });
    expect(screen.queryByRole('button', { name: 'desk' })).not.toBeInTheDocument();
    await userEvent.click(credit);
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/channels/c2/items')?.body).toEqual({ deeplink: 'd1' }));
    expect(await screen.findByText('Shared to the group')).toBeInTheDocument();
  });

  it('is not offered on Needl Web results', () => {
    stubApi({});
    renderWithProviders(
      <CardScopeProvider value={{ webResult: true }}>
        <ShareToGroup target={target} />
      </CardScopeProvider>,
      { route: '/search' },
    );
    expect(screen.queryByRole('button', { name: /^Add to group/ })).not.toBeInTheDocument();
  });
});
