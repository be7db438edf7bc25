import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserProfile } from '../../../../lib/queries/user-queries';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import { WHATSAPP_NUMBER_HINT } from '../whatsapp-number';
import { ProfileDetailsForm, SAVE_FAILED } from './profile-details-form';

const profile: UserProfile = {
  id: 'u1',
  email_id: 'ann@example.com',
  username: 'ann',
  industry: 'Banking',
  profession: null,
  whatsapp_number: null,
};

const SERVER_SENTENCE = 'enter the WhatsApp number with its country code, e.g. +44 7700 900123';

const ROUTE = { route: '/settings/user-settings' };

const numberField = () => screen.getByRole('textbox', { name: 'WhatsApp number' });
const saveButton = () => screen.getByRole('button', { name: 'Save profile' });

describe('ProfileDetailsForm', () => {
  it('shows what the profile holds, and the number’s format under its field', () => {
    stubApi({});
    renderWithProviders(<ProfileDetailsForm profile={{ ...profile, whatsapp_number: '+91 98765 43210' }} />, ROUTE);
    expect(screen.getByRole('textbox', { name: 'Industry' })).toHaveValue('Banking');
    expect(screen.getByRole('textbox', { name: 'Profession' })).toHaveValue('');
    expect(numberField()).toHaveValue('+91 98765 43210');
    expect(numberField()).toHaveAttribute('type', 'tel');
    expect(numberField()).toHaveAccessibleDescription(/With its country code, e\.g\. \+44 7700 900123/);
  });

  it('refuses a number without its country code in the browser, sends nothing, and clears the message once it is right', async () => {
    const calls = stubApi({});
    renderWithProviders(<ProfileDetailsForm profile={profile} />, ROUTE);
    await userEvent.type(numberField(), '07700 900123');
    await userEvent.click(saveButton());
    expect(numberField()).toHaveAttribute('aria-invalid', 'true');
    expect(numberField()).toHaveAccessibleDescription(WHATSAPP_NUMBER_HINT);
    expect(numberField()).toHaveFocus();
    expect(calls.filter((c) => c.key.startsWith('PATCH'))).toEqual([]);

    await userEvent.clear(numberField());
    await userEvent.type(numberField(), '+44 7700 900123');
    expect(numberField()).not.toHaveAttribute('aria-invalid');
  });

  it('saves only the fields that changed, trimmed, with Enter from the field', async () => {
    const calls = stubApi({
      'PATCH /api/user': () => json(200, { ...profile, profession: 'Analyst', whatsapp_number: '+44 7700 900123' }),
    });
    renderWithProviders(<ProfileDetailsForm profile={profile} />, ROUTE);
    await userEvent.type(screen.getByRole('textbox', { name: 'Profession' }), ' Analyst ');
    await userEvent.type(numberField(), '+44 7700 900123{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Profile saved.');
    expect(calls.find((c) => c.key === 'PATCH /api/user')?.body).toEqual({ profession: 'Analyst', whatsapp_number: '+44 7700 900123' });
    expect(screen.getByRole('textbox', { name: 'Profession' })).toHaveValue('Analyst');
  });

  it('clears the number when the field is emptied', async () => {
    const calls = stubApi({ 'PATCH /api/user': () => json(200, { ...profile, whatsapp_number: null }) });
    renderWithProviders(<ProfileDetailsForm profile={{ ...profile, whatsapp_number: '+44 7700 900123' }} />, ROUTE);
    await userEvent.clear(numberField());
    await userEvent.click(saveButton());
    await screen.findByText('Profile saved.');
    expect(calls.find((c) => c.key === 'PATCH /api/user')?.body).toEqual({ whatsapp_number: '' });
  });

  it('shows the server’s refusal of the number under the field', async () => {
    stubApi({
      'PATCH /api/user': () => json(422, { code: 'invalid_whatsapp_number', message: `${SERVER_SENTENCE} (server)` }),
    });
    renderWithProviders(<ProfileDetailsForm profile={profile} />, ROUTE);
    await userEvent.type(numberField(), '+44 7700 900123');
    await userEvent.click(saveButton());
    await waitFor(() => expect(numberField()).toHaveAttribute('aria-invalid', 'true'));
    expect(numberField()).toHaveAccessibleDescription(`Enter the WhatsApp number with its country code, e.g. +44 7700 900123 (server)`);
    expect(numberField()).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so above the button when saving fails otherwise, in the server’s words when it gave some', async () => {
    let answer = json(422, { code: 'field_too_long', message: 'industry is longer than 128 characters' });
    stubApi({ 'PATCH /api/user': () => answer });
    renderWithProviders(<ProfileDetailsForm profile={profile} />, ROUTE);
    await userEvent.type(screen.getByRole('textbox', { name: 'Industry' }), 'x');
    await userEvent.click(saveButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('industry is longer than 128 characters');

    answer = json(500, { code: 'internal', message: 'internal error' });
    await userEvent.click(saveButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(SAVE_FAILED));
  });

  it('sends nothing when nothing changed, and says so', async () => {
    const calls = stubApi({});
    renderWithProviders(<ProfileDetailsForm profile={profile} />, ROUTE);
    await userEvent.click(saveButton());
    expect(screen.getByRole('status')).toHaveTextContent('Nothing to save');
    expect(calls).toEqual([]);
  });
});
