import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import { ONBOARDING_FAILED } from './attributes-form';
import { OnboardingPage } from './onboarding-page';

const profile = { id: 'u1', email_id: 'ann@example.com', username: 'ann', industry: 'Banking', profession: null, whatsapp_number: null };
const NEW = { user_status: 'new' };
const ASKING = { show_attributes_form: true, show_search_modal: true };

/** The onboarding page at `route`, with `/` and a saved target as places to land. */
function renderOnboarding(route = '/onboarding') {
  return renderWithProviders(<OnboardingPage />, { route, path: '/onboarding' });
}

describe('OnboardingPage', () => {
  it('asks a new user for their industry and profession, completes onboarding, and goes home', async () => {
    const calls = stubApi({
      'GET /api/user/status': () => json(200, NEW),
      'GET /api/onboarding/flags': () => json(200, ASKING),
      'GET /api/user': () => json(200, profile),
      'POST /api/onboarding/attributes': () => json(200, { user_status: 'active' }),
    });
    renderOnboarding();
    expect(await screen.findByRole('heading', { name: 'Tell us about your work', level: 1 })).toBeInTheDocument();
    // What the profile knows is filled in.
    expect(screen.getByRole('textbox', { name: 'Industry' })).toHaveValue('Banking');
    await userEvent.type(screen.getByRole('textbox', { name: 'Profession' }), ' Equity analyst {Enter}');
    expect(await screen.findByText('at home')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/onboarding/attributes')?.body).toEqual({
      industry: 'Banking',
      profession: 'Equity analyst',
    });
  });

  it('refuses blank answers in the browser, naming the field, and sends nothing', async () => {
    const calls = stubApi({
      'GET /api/user/status': () => json(200, NEW),
      'GET /api/onboarding/flags': () => json(200, ASKING),
      'GET /api/user': () => json(200, { ...profile, industry: null }),
    });
    renderOnboarding();
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    const industry = screen.getByRole('textbox', { name: 'Industry' });
    expect(industry).toHaveAttribute('aria-invalid', 'true');
    expect(industry).toHaveAccessibleDescription('Industry is a required field');
    expect(industry).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Profession' })).toHaveAccessibleDescription('Profession is a required field');
    expect(calls.filter((c) => c.key.startsWith('POST'))).toEqual([]);
  });

  it('shows the server’s refusal, or a plain failure, above the button and stays', async () => {
    let answer = json(422, { code: 'invalid_attributes', message: 'industry and profession are required fields' });
    stubApi({
      'GET /api/user/status': () => json(200, NEW),
      'GET /api/onboarding/flags': () => json(200, ASKING),
      'GET /api/user': () => json(200, { ...profile, profession: 'Analyst' }),
      'POST /api/onboarding/attributes': () => answer,
    });
    renderOnboarding();
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('industry and profession are required fields');
    answer = json(500, { code: 'internal', message: 'internal error' });
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(ONBOARDING_FAILED));
    expect(screen.queryByText('at home')).not.toBeInTheDocument();
  });

  it('goes on to the page it was given once onboarding is done, or when there is nothing to ask', async () => {
    stubApi({
      'GET /api/user/status': () => json(200, { user_status: 'active' }),
      'GET /api/onboarding/flags': () => json(200, { show_attributes_form: false, show_search_modal: false }),
      'GET /api/user': () => json(200, profile),
    });
    renderWithProviders(
      <Routes>
        <Route path="/onboarding" element={<OnboardingPage />} />
        <Route path="/search" element={<p>at search</p>} />
      </Routes>,
      { route: '/onboarding?redirect=%2Fsearch' },
    );
    expect(await screen.findByText('at search')).toBeInTheDocument();
  });

  it('goes home when onboarding is done', async () => {
    stubApi({
      'GET /api/user/status': () => json(200, { user_status: 'active' }),
      'GET /api/onboarding/flags': () => json(200, { show_attributes_form: false, show_search_modal: false }),
      'GET /api/user': () => json(200, profile),
    });
    renderOnboarding();
    expect(await screen.findByText('at home')).toBeInTheDocument();
  });

  it('lets the user skip to where they were going', async () => {
    stubApi({
      'GET /api/user/status': () => json(200, NEW),
      'GET /api/onboarding/flags': () => json(200, ASKING),
      'GET /api/user': () => json(200, profile),
    });
    renderOnboarding();
    expect(await screen.findByRole('link', { name: 'Skip for now' })).toHaveAttribute('href', '/');
  });

  it('says when the flags cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/user/status': () => json(200, NEW),
      'GET /api/onboarding/flags': () => (++calls === 1 ? json(500, { code: 'internal', message: 'internal error' }) : json(200, ASKING)),
      'GET /api/user': () => json(200, profile),
    });
    renderOnboarding();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your onboarding could not be loaded.');
    expect(screen.getByRole('link', { name: 'Continue to Needl' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Tell us about your work' })).toBeInTheDocument();
  });
});
