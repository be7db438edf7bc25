import { render, screen } from '@testing-library/react';
import { SentimentBadge } from './sentiment-badge';

describe('SentimentBadge', () => {
  it('shows a positive tone with its icon, its word, a spoken label and where it comes from', () => {
    render(<SentimentBadge sentiment={{ label: 'positive', score: 0.6 }} />);
    const badge = screen.getByRole('img', { name: 'Tone: positive' });
    expect(badge).toHaveTextContent(/^Positive$/);
    expect(badge).toHaveAttribute('data-tone', 'positive');
    expect(badge).toHaveAttribute('title', "From the headline's wording");
    expect(badge.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows a negative tone', () => {
    render(<SentimentBadge sentiment={{ label: 'negative', score: -0.4 }} />);
    const badge = screen.getByRole('img', { name: 'Tone: negative' });
    expect(badge).toHaveTextContent(/^Negative$/);
    expect(badge).toHaveAttribute('data-tone', 'negative');
  });

  it('shows nothing for a neutral tone, none at all, or a label it does not know', () => {
    const { container, rerender } = render(<SentimentBadge sentiment={{ label: 'neutral', score: 0 }} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<SentimentBadge sentiment={undefined} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<SentimentBadge sentiment={null} />);
    expect(container).toBeEmptyDOMElement();
    // A newer server's label, on a list the app does not parse.
    rerender(<SentimentBadge sentiment={{ label: 'mixed', score: 0 } as never} />);
    expect(container).toBeEmptyDOMElement();
  });
});
