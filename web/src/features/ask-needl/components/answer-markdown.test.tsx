import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { citation } from '../test/fixtures';
import { AnswerMarkdown } from './answer-markdown';

describe('an answer', () => {
  it('renders markdown with citation buttons; an unknown citation is ignored', () => {
    renderWithProviders(<AnswerMarkdown text={'## Summary\n\nRevenue **grew** [1] and fell [9].'} citations={[citation()]} />, { route: '/ask' });
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeInTheDocument();
    expect(screen.getByText('grew').tagName).toBe('STRONG');
    const buttons = screen.getAllByTestId('citation');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName('Source 1: Annual report 2024');
    expect(screen.queryByText('9')).not.toBeInTheDocument();
  });

  it('shows a popover with the words around the highlight, the source and the date on hover or focus', () => {
    vi.useFakeTimers();
    renderWithProviders(<AnswerMarkdown text="Revenue grew [1]." citations={[citation()]} />, { route: '/ask' });
    const button = screen.getByTestId('citation');
    fireEvent.focus(button);
    const popover = screen.getByRole('tooltip');
    expect(popover).toHaveTextContent('revenue grew by twelve percent');
    expect(popover).toHaveTextContent('Needl Drive');
    expect(popover).toHaveTextContent('5 Mar 2024');
    fireEvent.blur(button);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.mouseEnter(button.parentElement!);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    vi.useRealTimers();
  });

  it('says to view the source when the citation has no content', () => {
    renderWithProviders(<AnswerMarkdown text="See [1]." citations={[citation({ context: '' })]} />, { route: '/ask' });
    fireEvent.focus(screen.getByTestId('citation'));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Click the "View Source" button to view the original content.');
  });

  it('opens the preview at the passage when a citation is pressed', () => {
    renderWithProviders(<AnswerMarkdown text="See [1]." citations={[citation()]} />, { route: '/ask-needl/full', path: '/ask-needl/full' });
    fireEvent.click(screen.getByTestId('citation'));
    expect(screen.queryByTestId('citation')).not.toBeInTheDocument();
  });

  it('never renders raw HTML, scripts, images or javascript links', () => {
    const { container } = renderWithProviders(
      <AnswerMarkdown
        text={'Hi <script>window.hacked = 1</script> <img src=x onerror="window.hacked=1"> ![pic](https://evil.test/x.png) [click](javascript:alert(1)) <b>bold</b> [ok](https://ok.test)'}
        citations={[]}
      />,
      { route: '/ask' },
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(screen.getByText('click').tagName).toBe('SPAN');
    expect(screen.getByRole('link', { name: 'ok' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('pic')).toBeInTheDocument();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });
});
