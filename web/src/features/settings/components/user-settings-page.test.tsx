import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { UserSettingsPage } from './user-settings-page';

const profile = { id: 'u1', email_id: 'ann@example.com', username: 'ann', industry: null, profession: null, whatsapp_number: null };

describe('user settings page', () => {
  it("shows the user's username and email, and the section that erases the account", async () => {
    stubApi({
      'GET /api/user': () => json(200, profile),
      'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    });
    renderWithProviders(<UserSettingsPage />, { route: '/settings/user-settings' });
    expect(await screen.findByText('ann')).toBeInTheDocument();
    expect(screen.getByText('ann@example.com')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Erase account' })).toBeInTheDocument();
  });

  it('edits the profile’s industry, profession and WhatsApp number, as the server holds them', async () => {
    stubApi({
      'GET /api/user': () => json(200, { ...profile, industry: 'Banking', whatsapp_number: '+44 7700 900123' }),
      'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    });
    renderWithProviders(<UserSettingsPage />, { route: '/settings/user-settings' });
    const form = await screen.findByRole('form', { name: 'Profile details' });
    expect(within(form).getByRole('textbox', { name: 'Industry' })).toHaveValue('Banking');
    expect(within(form).getByRole('textbox', { name: 'WhatsApp number' })).toHaveValue('+44 7700 900123');
  });

  it('says when the profile cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/user': () => (++calls === 1 ? json(500, { code: 'internal', message: 'internal error' }) : json(200, profile)),
      'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    });
    renderWithProviders(<UserSettingsPage />, { route: '/settings/user-settings' });
    const failure = (await screen.findByText(/Your profile could not be loaded/)).closest('[role="alert"]') as HTMLElement;
    expect(failure).toBeInTheDocument();
    await userEvent.click(within(failure).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form', { name: 'Profile details' })).toBeInTheDocument();
  });

  it('saves the AskNeedl Pro switch to the preferences', async () => {
    const calls = stubApi({
      'GET /api/user': () => json(200, profile),
      'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
      'PATCH /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: true }),
    });
    renderWithProviders(<UserSettingsPage />, { route: '/settings/user-settings' });
    const toggle = screen.getByRole('switch', { name: 'AskNeedl Pro' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(calls.find((c) => c.key === 'PATCH /api/user/preferences')?.body).toEqual({ askneedl_pro: true });
  });

  it('puts the switch back and shows a toast when saving fails', async () => {
    stubApi({
      'GET /api/user': () => json(200, profile),
      'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
      'PATCH /api/user/preferences': () => json(500, { code: 'internal', message: 'internal error' }),
    });
    renderWithProviders(<UserSettingsPage />, { route: '/settings/user-settings' });
    const toggle = screen.getByRole('switch', { name: 'AskNeedl Pro' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.click(toggle);
    expect(await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :(')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });
});
