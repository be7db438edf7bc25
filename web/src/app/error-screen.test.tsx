import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from './error-screen';

function Broken({ message }: { message: string }): never {
  throw new Error(message);
}

describe('error screen', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}));

  it('shows the message, the support address and a way back', () => {
    render(
      <ErrorBoundary>
        <Broken message="feed exploded" />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('feed exploded')).toBeInTheDocument();
    expect(screen.getByText(/Please contact us at/)).toHaveTextContent('support@needl.ai');
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument();
    expect(screen.getByText('click to continue')).toBeInTheDocument();
  });

  it('reloads the page when a dynamically imported module failed to fetch', () => {
    const reload = vi.fn();
    render(
      <ErrorBoundary reload={reload}>
        <Broken message="Failed to fetch dynamically imported module: /assets/x.js" />
      </ErrorBoundary>,
    );
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
