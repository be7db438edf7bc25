import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CardActionsProvider, type CardActionTarget } from '../../../lib/card-actions';
import { renderWithProviders } from '../../../test/render';
import type { DocumentCard as Doc } from '../api/document-api';
import { DocumentCard } from './document-card';

const doc = (overrides: Partial<Doc> = {}): Doc => ({
  deeplink: 'rss_1:abc',
  source: 'rss_1',
  link: 'https://example.com/post',
  title: 'Rates held steady',
  author: 'Ann Writer',
  published_at: '2026-11-20T10:00:00Z',
  summary: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '),
  metadata: { source_label: 'Example News' },
  ingested_at: '2026-11-20T10:05:00Z',
  read: false,
  ...overrides,
});

const now = new Date('2026-11-22T10:00:00Z');

describe('DocumentCard', () => {
  it('shows an unread document marked as such, with its details and whole RSS summary', () => {
    renderWithProviders(<DocumentCard doc={doc()} read={false} onToggleRead={() => {}} now={now} />, { route: '/feeds/home' });
    const card = screen.getByRole('article', { name: /Rates held steady/ });
    expect(card).toHaveAttribute('data-read', 'false');
    expect(card).toHaveClass('doc-card-unread');
    expect(screen.getByRole('img', { name: 'Unread' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Read/ })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Example News')).toBeInTheDocument();
    expect(screen.getByText('Ann Writer')).toBeInTheDocument();
    expect(screen.getByText('20-11-2026 · 2 days ago')).toBeInTheDocument();
    expect(screen.getByText(/^w0 .* w119$/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rates held steady' })).toHaveAttribute(
      'href',
      '/preview/feeds/rss_1%3Aabc?source=rss_1',
    );
  });

  it('cuts the text of other documents at 100 words', () => {
    renderWithProviders(<DocumentCard doc={doc({ source: 'needldrive' })} read={false} onToggleRead={() => {}} now={now} />, {
      route: '/feeds/home',
    });
    expect(screen.getByText(/^w0 .* w99…$/)).toBeInTheDocument();
  });

  it('shows an old date once, as DD-MM-YYYY', () => {
    renderWithProviders(
      <DocumentCard doc={doc({ published_at: '2026-01-05T10:00:00Z' })} read={false} onToggleRead={() => {}} now={now} />,
      { route: '/feeds/home' },
    );
    expect(screen.getByText('05-01-2026')).toBeInTheDocument();
  });

  it("opens the preview with the card's access key", () => {
    renderWithProviders(<DocumentCard doc={doc({ access_key: 'k1' })} read={false} onToggleRead={() => {}} category="apps" now={now} />, {
      route: '/apps/needldrive',
    });
    expect(screen.getByRole('link', { name: 'Rates held steady' })).toHaveAttribute(
      'href',
      '/preview/apps/rss_1%3Aabc?source=rss_1&access_key=k1',
    );
  });

  it('offers Share and open in source only as the flags say', () => {
    renderWithProviders(
      <DocumentCard doc={doc()} read={false} onToggleRead={() => {}} flags={{ share: true, openInSource: false }} now={now} />,
      { route: '/feeds/home' },
    );
    expect(screen.getByRole('button', { name: 'Share Rates held steady' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Open in source/ })).not.toBeInTheDocument();
  });

  it('shows a read document pressed and without the unread mark', () => {
    renderWithProviders(<DocumentCard doc={doc()} read onToggleRead={() => {}} now={now} />, { route: '/feeds/home' });
    expect(screen.getByRole('article')).not.toHaveClass('doc-card-unread');
    expect(screen.queryByRole('img', { name: 'Unread' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Read/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('opens the source in a new tab without giving it the opener', () => {
    renderWithProviders(<DocumentCard doc={doc()} read={false} onToggleRead={() => {}} now={now} />, { route: '/feeds/home' });
    const link = screen.getByRole('link', { name: /Open in source/ });
    expect(link).toHaveAttribute('href', 'https://example.com/post');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('has no open-in-source link when the document has no link', () => {
    renderWithProviders(<DocumentCard doc={doc({ link: null })} read={false} onToggleRead={() => {}} now={now} />, { route: '/feeds/home' });
    expect(screen.queryByRole('link', { name: /Open in source/ })).not.toBeInTheDocument();
  });

  it('draws the actions other features add to cards, telling them about the document', () => {
    const seen: CardActionTarget[] = [];
    const Added = ({ target }: { target: CardActionTarget }) => {
      seen.push(target);
      return <button type="button">Added action</button>;
    };
    renderWithProviders(
      <CardActionsProvider value={[Added]}>
        <DocumentCard doc={doc({ access_key: 'k1' })} read={false} onToggleRead={() => {}} category="apps" now={now} />
      </CardActionsProvider>,
      { route: '/feeds/home' },
    );
    expect(screen.getByRole('button', { name: 'Added action' })).toBeInTheDocument();
    expect(seen.at(-1)).toEqual({
      deeplink: 'rss_1:abc',
      source: 'rss_1',
      title: 'Rates held steady',
      link: 'https://example.com/post',
      excerpt: doc().summary,
      previewPath: '/preview/apps/rss_1%3Aabc?source=rss_1&access_key=k1',
    });
  });

  it('asks to toggle when the read button is pressed', async () => {
    const onToggleRead = vi.fn();
    renderWithProviders(<DocumentCard doc={doc()} read={false} onToggleRead={onToggleRead} now={now} />, { route: '/feeds/home' });
    await userEvent.click(screen.getByRole('button', { name: /^Read/ }));
    expect(onToggleRead).toHaveBeenCalledOnce();
  });

  describe('tone', () => {
    const toned = (label: 'positive' | 'negative' | 'neutral', score: number) => doc({ sentiment: { label, score } });
    const on = { share: false, openInSource: true, sentiment: true };

    it('shows a positive tone in the details line when the flag is on', () => {
      renderWithProviders(
        <DocumentCard doc={toned('positive', 0.7)} read={false} onToggleRead={() => {}} flags={on} now={now} />,
        { route: '/feeds/home' },
      );
      const badge = screen.getByRole('img', { name: 'Tone: positive' });
      expect(badge).toHaveTextContent('Positive');
      expect(badge).toHaveAttribute('title', "From the headline's wording");
      expect(badge.closest('.doc-card-meta')).not.toBeNull();
    });

    it('shows a negative tone when the flag is on', () => {
      renderWithProviders(
        <DocumentCard doc={toned('negative', -0.3)} read={false} onToggleRead={() => {}} flags={on} now={now} />,
        { route: '/feeds/home' },
      );
      expect(screen.getByRole('img', { name: 'Tone: negative' })).toHaveTextContent('Negative');
    });

    it('shows nothing for a neutral tone or a card without one', () => {
      const { unmount } = renderWithProviders(<DocumentCard doc={toned('neutral', 0)} read={false} onToggleRead={() => {}} flags={on} now={now} />, {
        route: '/feeds/home',
      });
      expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
      unmount();
      renderWithProviders(<DocumentCard doc={doc()} read={false} onToggleRead={() => {}} flags={on} now={now} />, { route: '/feeds/home' });
      expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
    });

    it('is hidden while the flag is off or unknown', () => {
      const { unmount } = renderWithProviders(
        <DocumentCard doc={toned('positive', 0.7)} read={false} onToggleRead={() => {}} flags={{ ...on, sentiment: false }} now={now} />,
        { route: '/feeds/home' },
      );
      expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
      unmount();
      renderWithProviders(<DocumentCard doc={toned('negative', -0.7)} read={false} onToggleRead={() => {}} now={now} />, { route: '/feeds/home' });
      expect(screen.queryByTestId('sentiment-badge')).not.toBeInTheDocument();
    });
  });
});
