import { act, render, screen } from '@testing-library/react';
import { notify } from '../lib/notices';
import { ToastContext } from './toast-context';
import { Toaster } from './toaster';

describe('Toaster', () => {
  it('shows the notices features raise, for the duration they ask', () => {
    vi.useFakeTimers();
    render(
      <ToastContext.Provider>
        <Toaster />
      </ToastContext.Provider>,
    );
    act(() => notify({ type: 'error', message: 'Folder upload is not allowed', duration: 3000 }));
    expect(screen.getByRole('alert')).toHaveTextContent('Folder upload is not allowed');
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.queryByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
