import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { OrganisationSignIn } from './organisation-sign-in';

const config = (body: unknown) => ({ 'GET /api/auth/oidc/config': () => json(200, body) });

describe('sign-in with the organisation', () => {
  it('offers the provider by its name and leaves for it, asking to come back to the saved address', async () => {
    stubApi(config({ enabled: true, label: 'Example Corp' }));
    sessionStorage.setItem('redirectUri', '/notebooks');
    const leave = vi.fn();
    renderWithProviders(<OrganisationSignIn leave={leave} />, { route: '/auth/signin' });

    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Example Corp' }));
    expect(leave).toHaveBeenCalledWith('/api/auth/oidc/start?redirect=%2Fnotebooks');
    expect(localStorage.getItem('oauth-signin')).toBe('true');
  });

  it('names the organisation in general when the server gives no name', async () => {
    stubApi(config({ enabled: true, label: null }));
    renderWithProviders(<OrganisationSignIn leave={vi.fn()} />, { route: '/auth/signin' });
    expect(await screen.findByRole('button', { name: 'Sign in with your organisation' })).toBeInTheDocument();
  });

  it('offers nothing when no provider is set up, or the server cannot say', async () => {
    const calls = stubApi(config({ enabled: false, label: null }));
    const { unmount } = renderWithProviders(<OrganisationSignIn leave={vi.fn()} />, { route: '/auth/signin' });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();

    const failed = stubApi({ 'GET /api/auth/oidc/config': () => json(500, { code: 'internal', message: 'internal error' }) });
    renderWithProviders(<OrganisationSignIn leave={vi.fn()} />, { route: '/auth/signin' });
    await vi.waitFor(() => expect(failed).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    // No toast: the email form is still there.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
