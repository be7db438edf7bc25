import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { MOBILE_QUERY } from '../../../lib/media';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { CardTags } from './card-tags';

const target: CardActionTarget = {
  deeplink: 'd1',
  source: 'rss_1',
  title: 'Rates note',
  link: null,
  excerpt: null,
  previewPath: '/preview/feeds/d1',
};

const tags = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, name: `${prefix.toUpperCase()} ${i + 1}` }));

const stubTags = (url: string) =>
  stubApi({
    'GET /api/feature/config': () => json(200, { features: {} }),
    [url]: () => json(200, { results: { user_tags: tags('u', 4), shared_tags: tags('s', 3), bookmarked: false } }),
  });

const onMobile = (mobile: boolean) =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: mobile && query === MOBILE_QUERY,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );

describe('CardTags', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows five tags on desktop, two shared and two of the user’s first, and the rest behind +N', async () => {
    onMobile(false);
    stubTags('GET /api/tag?deep_link=d1&channel_id=c1');
    renderWithProviders(
      <CardScopeProvider value={{ channelId: 'c1' }}>
        <CardTags target={target} />
      </CardScopeProvider>,
      { route: '/channels/c1' },
    );
    const list = await screen.findByRole('list', { name: 'Tags of Rates note' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['S 1', 'S 2', 'U 1', 'U 2', 'S 3']);
    // Shared tags are marked, the user's own lead to their documents.
    expect(within(list).queryByRole('link', { name: 'S 1' })).not.toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'U 1' })).toHaveAttribute('href', '/needlbox/tags/all?tag_id=u1');

    await userEvent.click(screen.getByRole('button', { name: '2 more tags' }));
    const more = screen.getByRole('dialog', { name: 'More tags of Rates note' });
    expect(within(more).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['U 3', 'U 4']);
  });

  it('shows one tag on mobile', async () => {
    onMobile(true);
    stubTags('GET /api/tag?deep_link=d1');
    renderWithProviders(<CardTags target={target} />, { route: '/feeds/home' });
    const list = await screen.findByRole('list', { name: 'Tags of Rates note' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['S 1']);
    expect(screen.getByRole('button', { name: '6 more tags' })).toHaveTextContent('+6');
  });
});
