import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { WhatsappStatus } from '../api/whatsapp-api';
import { digitsOf } from './code-form';
import { WhatsappVerificationPage } from './whatsapp-verification-page';

const NUMBER = '+44 7700 900123';
const UNVERIFIED: WhatsappStatus = { number: NUMBER, verified: false, required: false, code_sent_at: null, resend_after_seconds: 0 };

/** The page, and the profile page answering with a line, to see it go on there. */
const render = () =>
  renderWithProviders(
    <Routes>
      <Route path="/pulse/whatsapp-verification" element={<WhatsappVerificationPage />} />
      <Route path="/pulse/settings/user-settings" element={<p>the profile</p>} />
    </Routes>,
    { route: '/pulse/whatsapp-verification' },
  );

/** A stub whose status answers with what `state` holds at the time (a sent code changes it). */
function stubFlow(state: { status: WhatsappStatus }, more: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/user/whatsapp/status': () => json(200, state.status),
    'POST /api/user/whatsapp/otp': () => {
      state.status = { ...state.status, code_sent_at: new Date().toISOString(), resend_after_seconds: 60 };
      return json(200, { sent_to: NUMBER, expires_at: new Date(Date.now() + 600_000).toISOString() });
    },
    ...more,
  });
}

const codeField = () => screen.getByRole('textbox', { name: '6-digit code' });

async function sendCode() {
  await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
  await screen.findByRole('textbox', { name: '6-digit code' });
}

describe('verifying the WhatsApp number', () => {
  it('shows the number, says verification is optional, and sends a code on asking', async () => {
    const calls = stubFlow({ status: UNVERIFIED });
    render();
    expect(await screen.findByTestId('whatsapp-number')).toHaveTextContent(NUMBER);
    expect(screen.getByText(/Verifying your number is optional for your account/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: '6-digit code' })).not.toBeInTheDocument();

    await sendCode();
    expect(calls.filter((c) => c.key === 'POST /api/user/whatsapp/otp')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent(`Code sent to ${NUMBER}.`);
    expect(codeField()).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeField()).toHaveAttribute('inputmode', 'numeric');
    // The status now says another code may be asked for in a minute.
    expect(await screen.findByTestId('resend-countdown')).toHaveTextContent(/You can ask for another code in (59|60) s\./);
    expect(screen.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
  });

  it('does not say it is optional when this user must verify', async () => {
    stubFlow({ status: { ...UNVERIFIED, required: true } });
    render();
    await screen.findByTestId('whatsapp-number');
    expect(screen.queryByText(/optional/)).not.toBeInTheDocument();
  });

  it('keeps the digits of a pasted code, and does not send one that is not six digits', async () => {
    expect(digitsOf('123 456')).toBe('123456');
    expect(digitsOf('12-34-56-78')).toBe('123456');
    const calls = stubFlow({ status: { ...UNVERIFIED, code_sent_at: new Date().toISOString() } });
    render();
    await userEvent.type(await screen.findByRole('textbox', { name: '6-digit code' }), '12a3');
    expect(codeField()).toHaveValue('123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6 digits of the code.')).toBeInTheDocument();
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    expect(codeField()).toHaveFocus();
    expect(calls.filter((c) => c.key === 'POST /api/user/whatsapp/verify')).toHaveLength(0);
  });

  it("shows the server's words for a wrong code, with the tries left, and for an expired one", async () => {
    const answers = [
      json(422, { code: 'wrong_code', message: 'That code is not right; 4 tries left.' }),
      json(422, { code: 'code_expired', message: 'this code has expired; ask for a new one' }),
    ];
    stubFlow({ status: UNVERIFIED }, { 'POST /api/user/whatsapp/verify': () => answers.shift()! });
    render();
    await sendCode();
    await userEvent.type(codeField(), '000000{Enter}');
    expect(await screen.findByText('That code is not right; 4 tries left.')).toBeInTheDocument();
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(codeField());
    expect(screen.queryByText('That code is not right; 4 tries left.')).not.toBeInTheDocument();
    await userEvent.type(codeField(), '111111{Enter}');
    expect(await screen.findByText('This code has expired; ask for a new one')).toBeInTheDocument();
  });

  it('waits out a refused ask for another code, counting down from Retry-After', async () => {
    stubFlow(
      { status: { ...UNVERIFIED, code_sent_at: new Date().toISOString() } },
      {
        'POST /api/user/whatsapp/otp': () =>
          new Response(JSON.stringify({ code: 'too_many_codes', message: 'too many codes asked for; try again in 45 seconds' }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '45' },
          }),
      },
    );
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have asked for several codes in a short time.');
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent(/in (44|45) s\./);
    expect(screen.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
  });

  it('verifies the right code: fires "whatsapp number verified", says so and goes on to the profile page', async () => {
    const heard = vi.fn();
    window.addEventListener('whatsapp number verified', heard);
    const calls = stubFlow(
      { status: UNVERIFIED },
      { 'POST /api/user/whatsapp/verify': () => json(200, { verified: true, number: NUMBER }) },
    );
    render();
    await sendCode();
    await userEvent.type(codeField(), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('the profile')).toBeInTheDocument();
    expect(screen.getByText('Your WhatsApp number is verified')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/user/whatsapp/verify')?.body).toEqual({ code: '123456' });
    expect(heard).toHaveBeenCalledTimes(1);
    expect((heard.mock.calls[0][0] as CustomEvent).detail).toEqual({ number: NUMBER });
    window.removeEventListener('whatsapp number verified', heard);
  });

  it('asks for a number on the profile first when there is none', async () => {
    stubFlow({ status: { ...UNVERIFIED, number: null } });
    render();
    expect(await screen.findByRole('link', { name: 'Add your WhatsApp number' })).toHaveAttribute(
      'href',
      '/pulse/settings/user-settings',
    );
    expect(screen.queryByRole('button', { name: 'Send code' })).not.toBeInTheDocument();
  });

  it('says a verified number is verified', async () => {
    stubFlow({ status: { ...UNVERIFIED, verified: true } });
    render();
    expect(await screen.findByText(`Your WhatsApp number ${NUMBER} is verified.`)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'Send code' })).not.toBeInTheDocument();
  });

  it('offers Try again when the status could not be loaded', async () => {
    let fail = true;
    stubApi({
      'GET /api/user/whatsapp/status': () => (fail ? json(500, { code: 'internal', message: 'internal error' }) : json(200, UNVERIFIED)),
    });
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your WhatsApp number could not be loaded');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('whatsapp-number')).toHaveTextContent(NUMBER));
  });
});
