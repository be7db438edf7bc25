import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { BACK_CHECK_MS } from '../lib/native-bridge';
import { renderWithProviders } from '../test/render';
import { NativeBridge } from './native-bridge';

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

const fromHost = (data: unknown) => act(() => void window.dispatchEvent(new MessageEvent('message', { data })));

const renderBridge = (route: string) =>
  renderWithProviders(
    <>
      <NativeBridge />
      <Where />
    </>,
    { route },
  );

describe('the native bridge in the app', () => {
  afterEach(() => vi.useRealTimers());

  it('goes where the host app says, and only to the app’s own pages', () => {
    renderBridge('/feeds/home');
    fromHost(JSON.stringify({ type: 'navigate', path: '/notifications' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/notifications');
    fromHost({ type: 'navigate', path: 'https://evil.example/' });
    expect(screen.getByTestId('where')).toHaveTextContent('/notifications');
  });

  it('shows the host’s downloads in toasts', async () => {
    renderBridge('/feeds/home');
    fromHost({ type: 'download_done', kind: 'file', name: 'q3.pdf' });
    expect(await screen.findByText('Downloaded q3.pdf')).toBeInTheDocument();
    fromHost({ type: 'download_error', message: 'No space left on the device' });
    expect(await screen.findByRole('alert')).toHaveTextContent('No space left on the device');
  });

  it('goes back, and to the root when there was nothing to go back to (not on Android)', async () => {
    vi.useFakeTimers();
    renderBridge('/feeds/home');
    fromHost({ type: 'navigate', path: '/notifications' });
    fromHost({ type: 'history_back' });
    await act(() => vi.advanceTimersByTimeAsync(BACK_CHECK_MS));
    expect(screen.getByTestId('where')).toHaveTextContent('/feeds/home');

    fromHost({ type: 'history_back' });
    await act(() => vi.advanceTimersByTimeAsync(BACK_CHECK_MS));
    // The test renderer shows the root as "at home".
    expect(screen.getByText('at home')).toBeInTheDocument();
  });
});
