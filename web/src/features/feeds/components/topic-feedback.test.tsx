import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { board } from '../test/fixtures';
import { TopicFeedback } from './topic-feedback';

const target: CardActionTarget = {
  deeplink: 'd1',
  source: 'src_reuters',
  title: 'Acme agrees to acquire Beta',
  link: null,
  excerpt: null,
  previewPath: '/preview/feeds/d1',
};

const inFeed = (feedId: string | null) => (
  <CardScopeProvider value={{ feedId }}>
    <TopicFeedback target={target} />
  </CardScopeProvider>
);

describe('More / Less like this', () => {
  it('sends the word on the card’s document to the AI feed it is read in', async () => {
    const calls = stubApi({
      'GET /api/boards/b1': () => json(200, { results: board('b1', 'Deals', { topics: ['mergers'] }, { kind: 'ai' }) }),
      'POST /api/boards/b1/feedback': () => json(200, { results: { document_id: 'd1', more: false, applied: true } }),
    });
    renderWithProviders(inFeed('b1'), { route: '/feeds/b1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Less like this' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/boards/b1/feedback')).toBe(true));
    expect(calls.find((c) => c.key === 'POST /api/boards/b1/feedback')?.body).toEqual({ document_id: 'd1', more: false });
  });

  it('is not shown on keyword feeds nor outside a feed', async () => {
    const calls = stubApi({ 'GET /api/boards/b2': () => json(200, { results: board('b2', 'Rates') }) });
    const view = renderWithProviders(inFeed('b2'), { route: '/feeds/b2' });
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/boards/b2')).toBe(true));
    expect(screen.queryByRole('button', { name: 'More like this' })).toBeNull();
    view.unmount();
    renderWithProviders(inFeed(null), { route: '/search' });
    expect(screen.queryByRole('button', { name: 'More like this' })).toBeNull();
  });
});
