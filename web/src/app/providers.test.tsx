import { useMutation } from '@tanstack/react-query';
import { act, fireEvent, screen } from '@testing-library/react';
import { ApiError } from '../lib/api-client';
import { renderWithProviders } from '../test/render';
import { toastMessageFor } from './providers';
import { GENERIC_FAILURE } from './toast-context';

describe('toastMessageFor', () => {
  const refused = new ApiError(422, 'invalid', 'the server said no');
  const broken = new ApiError(500, 'internal', 'internal error');

  it("shows the server's message for a refusal and the generic text for a failure", () => {
    expect(toastMessageFor(refused, undefined)).toBe('the server said no');
    expect(toastMessageFor(broken, undefined)).toBe(GENERIC_FAILURE);
  });

  it('stays quiet when the page shows the error itself, or the session was lost', () => {
    expect(toastMessageFor(refused, { toast: false })).toBeNull();
    expect(toastMessageFor(new ApiError(401, 'unauthorized', 'x'), { errorToast: 'custom' })).toBeNull();
  });

  it("uses a mutation's own text, or asks it for one", () => {
    expect(toastMessageFor(broken, { errorToast: 'Priority failed' })).toBe('Priority failed');
    expect(toastMessageFor(refused, { errorToast: (e) => `got: ${(e as Error).message}` })).toBe('got: the server said no');
  });
});

describe('QueryProvider toasts', () => {
  function FailingUpload() {
    const upload = useMutation({
      meta: { errorToast: 'File(s) upload failed. Please try again.', toastDuration: 3000 },
      mutationFn: () => Promise.reject(new ApiError(500, 'internal', 'internal error')),
    });
    return (
      <button type="button" onClick={() => upload.mutate()}>
        Upload
      </button>
    );
  }

  it("keeps a mutation's error toast for the duration its meta asks", async () => {
    vi.useFakeTimers();
    renderWithProviders(<FailingUpload />, { route: '/apps/needldrive' });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('alert')).toHaveTextContent('File(s) upload failed. Please try again.');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
