import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { SearchHit } from '../api/search-api';
import { ResultCard } from './result-card';
import { ResultList } from './result-list';

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

const now = new Date('2026-11-22T10:00:00Z');

// Cards read the user's flags (the tone badge); tests that care stub their own.
beforeEach(() => {
  stubApi({ 'GET /api/feature/config': () => json(200, { features: {} }) });
});

const hit = (change: Partial<SearchHit> = {}): SearchHit => ({
  deeplink: 'needldrive/u1:f1',
  source: 'needldrive',
  source_label: 'Needl Drive',
  category_tab: 'drives',
  link: null,
  title: 'Quarterly review',
  author: 'Ann Writer',
  published_at: '2026-11-20T10:00:00Z',
  ingested_at: '2026-11-21T10:00:00Z',
  summary: 'The whole summary',
  metadata: { mime_type: 'application/pdf' },
  read: false,
  owned: true,
  access_key: 'k1',
  score: 3.2,
  highlights: [
    { html: 'New <em>tariffs</em> on steel', page: 1, boxes: [[72, 100, 300, 120]] },
    { html: 'The <em>tariffs</em> took effect', page: 3, boxes: [] },
    { html: 'Last <em>one</em>', page: null, boxes: [] },
  ],
  ...change,
});

describe('ResultCard', () => {
  it('shows the title, source, author, date and the first highlight with its matches marked', () => {
    renderWithProviders(<ResultCard hit={hit()} now={now} />, { route: '/search?q=tariffs' });
    const card = screen.getByRole('article', { name: 'Quarterly review' });
    expect(within(card).getByText('Needl Drive')).toBeInTheDocument();
    expect(within(card).getByText('Ann Writer')).toBeInTheDocument();
    expect(within(card).getByText('20-11-2026 · 2 days ago')).toBeInTheDocument();
    const highlight = within(card).getByTestId('search-highlight');
    expect(highlight).toHaveTextContent('New tariffs on steel (page 1)');
    expect(highlight.querySelector('em')).toHaveTextContent('tariffs');
    expect(within(card).queryByText('The whole summary')).not.toBeInTheDocument();
  });

  it('never turns highlight markup other than <em> into elements', () => {
    const html = 'x<script>window.hacked = 1</script><img src="nope" onerror="window.hacked = 2"><em onmouseover="y()">hit</em><a href="javascript:z()">link</a>';
    renderWithProviders(<ResultCard hit={hit({ highlights: [{ html, page: null, boxes: [] }] })} now={now} />, { route: '/search' });
    const highlight = screen.getByTestId('search-highlight');
    expect(highlight.querySelector('script, img, a, [onerror], [onmouseover]')).toBeNull();
    expect(highlight).toHaveTextContent(/^xhitlink$/);
    expect(highlight.querySelector('em')?.attributes).toHaveLength(1); // its class only
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it("moves between highlights with the pager, and the title opens the preview at the shown highlight's page", async () => {
    renderWithProviders(<ResultCard hit={hit()} now={now} />, { route: '/search?q=tariffs' });
    const pager = screen.getByRole('group', { name: 'Highlights in Quarterly review' });
    const title = screen.getByRole('link', { name: 'Quarterly review' });
    expect(within(pager).getByText('1 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous highlight' })).toBeDisabled();
    expect(title).toHaveAttribute('href', '/preview/apps/needldrive%2Fu1%3Af1?source=needldrive&access_key=k1&page=1&bbox=72%2C100%2C300%2C120');

    await userEvent.click(within(pager).getByRole('button', { name: 'Next highlight' }));
    expect(within(pager).getByText('2 of 3')).toBeInTheDocument();
    expect(screen.getByTestId('search-highlight')).toHaveTextContent('The tariffs took effect');
    expect(title).toHaveAttribute('href', '/preview/apps/needldrive%2Fu1%3Af1?source=needldrive&access_key=k1&page=3');

    await userEvent.click(within(pager).getByRole('button', { name: 'Next highlight' }));
    expect(within(pager).getByRole('button', { name: 'Next highlight' })).toBeDisabled();
    expect(title).toHaveAttribute('href', '/preview/apps/needldrive%2Fu1%3Af1?source=needldrive&access_key=k1');
  });

  it('steps through highlights with ← and → from the title', async () => {
    renderWithProviders(<ResultCard hit={hit()} now={now} />, { route: '/search' });
    screen.getByRole('link', { name: 'Quarterly review' }).focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('paragraph-pager')).toHaveTextContent('3 of 3');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('paragraph-pager')).toHaveTextContent('2 of 3');
  });

  it('has no pager for one highlight, and shows the summary when there is none', () => {
    renderWithProviders(<ResultCard hit={hit({ highlights: [], published_at: null })} now={now} />, { route: '/search' });
    expect(screen.queryByRole('group', { name: /Highlights/ })).not.toBeInTheDocument();
    expect(screen.getByText('The whole summary')).toBeInTheDocument();
    // The date falls back to when Needl recorded the document.
    expect(screen.getByText('21-11-2026 · yesterday')).toBeInTheDocument();
  });

  it('opens the preview when the card itself is clicked, but not from the pager', async () => {
    renderWithProviders(
      <>
        <Where />
        <ResultCard hit={hit({ source: 'rss_1', deeplink: 'rss_1:a', metadata: {}, access_key: null })} now={now} />
      </>,
      { route: '/search?q=tariffs' },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Next highlight' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/search?q=tariffs');
    await userEvent.click(screen.getByTestId('search-highlight'));
    expect(screen.getByTestId('where')).toHaveTextContent('/preview/feeds/rss_1%3Aa?source=rss_1');
  });

  it("opens a note found by search in the note's preview, from the title and from the card", async () => {
    const note = hit({
      source: 'needl_notebooks',
      source_label: 'Plant visits',
      category_tab: 'notes',
      deeplink: 'note 7',
      title: 'Visit to the Pune plant',
      metadata: { notebook_id: 'nb1' },
      access_key: null,
      highlights: [{ html: 'Severe <em>corrosion</em>', page: null, boxes: [] }],
    });
    renderWithProviders(
      <>
        <Where />
        <ResultCard hit={note} now={now} />
      </>,
      { route: '/search?q=corrosion' },
    );
    expect(screen.getByRole('link', { name: 'Visit to the Pune plant' })).toHaveAttribute('href', '/preview/needl_notebooks/note%207');
    await userEvent.click(screen.getByTestId('search-highlight'));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/preview\/needl_notebooks\/note%207$/);
  });
});

describe('ResultCard tone', () => {
  const flags = (on: boolean) => stubApi({ 'GET /api/feature/config': () => json(200, { features: { doc_sentiment_analysis: on } }) });

  it('shows a positive or negative tone once the flag is known to be on', async () => {
    flags(true);
    renderWithProviders(
      <>
        <ResultCard hit={hit({ deeplink: 'a', title: 'Profit beats', sentiment: { label: 'positive', score: 0.8 } })} now={now} />
        <ResultCard hit={hit({ deeplink: 'b', title: 'Loss widens', sentiment: { label: 'negative', score: -0.6 } })} now={now} />
      </>,
      { route: '/search?q=profit' },
    );
    const up = await within(screen.getByRole('article', { name: 'Profit beats' })).findByRole('img', { name: 'Tone: positive' });
    expect(up).toHaveTextContent('Positive');
    expect(up).toHaveAttribute('title', "From the headline's wording");
    expect(within(screen.getByRole('article', { name: 'Loss widens' })).getByRole('img', { name: 'Tone: negative' })).toHaveTextContent('Negative');
  });

  it('shows nothing for a neutral tone or a hit without one', async () => {
    const calls = flags(true);
    renderWithProviders(
      <>
        <ResultCard hit={hit({ deeplink: 'a', sentiment: { label: 'neutral', score: 0.05 } })} now={now} />
        <ResultCard hit={hit({ deeplink: 'b' })} now={now} />
      </>,
      { route: '/search' },
    );
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/feature/config'));
    await screen.findAllByRole('article');
    expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
  });

  it('is hidden when the flag is off', async () => {
    const calls = flags(false);
    renderWithProviders(<ResultCard hit={hit({ sentiment: { label: 'negative', score: -0.9 } })} now={now} />, { route: '/search' });
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/feature/config'));
    expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
  });
});

describe('ResultList', () => {
  it('moves between results with ↓ and ↑, Home and End', async () => {
    const hits = ['a', 'b', 'c'].map((id) => hit({ deeplink: id, title: `Result ${id}`, highlights: [] }));
    renderWithProviders(<ResultList hits={hits} now={now} />, { route: '/search' });
    const [a, b, c] = hits.map((h) => screen.getByRole('link', { name: h.title }));
    a.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(b).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(c).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(b).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(a).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(c).toHaveFocus();
  });
});
