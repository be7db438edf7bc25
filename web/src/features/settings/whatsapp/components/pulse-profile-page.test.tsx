import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserProfile } from '../../../../lib/queries/user-queries';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { WhatsappStatus } from '../api/whatsapp-api';
import { PulseProfilePage } from './pulse-profile-page';

const PROFILE: UserProfile = {
  id: 'u1',
  email_id: 'ann@example.com',
  username: 'ann',
  industry: null,
  profession: null,
  whatsapp_number: '+44 7700 900123',
};
const STATUS: WhatsappStatus = {
  number: '+44 7700 900123',
  verified: false,
  required: true,
  code_sent_at: null,
  resend_after_seconds: 0,
};

const whatsappSection = () => screen.getByRole('region', { name: 'WhatsApp verification' });

describe('the pulse profile page', () => {
  it('shows the profile form with the WhatsApp number, "Not verified" and the way to verify it', async () => {
    stubApi({
      'GET /api/user': () => json(200, PROFILE),
      'GET /api/user/whatsapp/status': () => json(200, STATUS),
    });
    renderWithProviders(<PulseProfilePage />, { route: '/pulse/settings/user-settings' });
    expect(await screen.findByRole('textbox', { name: 'WhatsApp number' })).toHaveValue('+44 7700 900123');
    expect(await within(whatsappSection()).findByTestId('whatsapp-status')).toHaveTextContent('Not verified');
    expect(within(whatsappSection()).getByText(/You need a verified WhatsApp number/)).toBeInTheDocument();
    expect(within(whatsappSection()).getByRole('link', { name: 'Verify your number' })).toHaveAttribute(
      'href',
      '/pulse/whatsapp-verification',
    );
    expect(screen.getByRole('link', { name: 'Update your portfolio' })).toHaveAttribute('href', '/pulse/update-portfolio');
  });

  it('says "Verified" without a way to verify again', async () => {
    stubApi({
      'GET /api/user': () => json(200, PROFILE),
      'GET /api/user/whatsapp/status': () => json(200, { ...STATUS, verified: true }),
    });
    renderWithProviders(<PulseProfilePage />, { route: '/pulse/settings/user-settings' });
    expect(await within(whatsappSection()).findByTestId('whatsapp-status')).toHaveTextContent('Verified');
    expect(within(whatsappSection()).getByTestId('whatsapp-status')).not.toHaveTextContent('Not verified');
    expect(within(whatsappSection()).queryByRole('link', { name: 'Verify your number' })).not.toBeInTheDocument();
  });

  it('asks the status again once a new number is saved: it is not verified any more', async () => {
    let status: WhatsappStatus = { ...STATUS, verified: true };
    stubApi({
      'GET /api/user': () => json(200, PROFILE),
      'GET /api/user/whatsapp/status': () => json(200, status),
      'PATCH /api/user': () => {
        status = { ...STATUS, number: '+44 7700 900999', verified: false };
        return json(200, { ...PROFILE, whatsapp_number: '+44 7700 900999' });
      },
    });
    renderWithProviders(<PulseProfilePage />, { route: '/pulse/settings/user-settings' });
    const number = await screen.findByRole('textbox', { name: 'WhatsApp number' });
    expect(await within(whatsappSection()).findByText('Verified')).toBeInTheDocument();
    await userEvent.clear(number);
    await userEvent.type(number, '+44 7700 900999');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await within(whatsappSection()).findByText('Not verified')).toBeInTheDocument();
    expect(within(whatsappSection()).getByTestId('whatsapp-status')).toHaveTextContent('+44 7700 900999');
  });

  it('asks for a number before it can be verified', async () => {
    stubApi({
      'GET /api/user': () => json(200, { ...PROFILE, whatsapp_number: null }),
      'GET /api/user/whatsapp/status': () => json(200, { ...STATUS, number: null, required: false }),
    });
    renderWithProviders(<PulseProfilePage />, { route: '/pulse/settings/user-settings' });
    expect(await within(whatsappSection()).findByText(/Add your WhatsApp number above to verify it\. Verifying it is optional\./)).toBeInTheDocument();
  });
});
