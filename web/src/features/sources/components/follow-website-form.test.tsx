import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { FollowWebsiteForm } from './follow-website-form';

describe('FollowWebsiteForm', () => {
  it('requires an address before calling the server', async () => {
    const calls = stubApi({});
    renderWithProviders(<FollowWebsiteForm />, { route: '/connect/website' });
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByText('URL is a required field')).toBeInTheDocument();
    expect(screen.getByLabelText('Website URL')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(screen.getByLabelText('Website URL'), 'not a url at all');
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByText('URL must be a valid URL')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('follows the site, taking an address without a scheme as https, and says so', async () => {
    const calls = stubApi({
      'POST /api/connect/website': () =>
        json(200, { source_id: 'web_1', following: true, label: 'example.com', url: 'https://example.com/' }),
    });
    renderWithProviders(<FollowWebsiteForm />, { route: '/connect/website' });
    await userEvent.type(screen.getByLabelText('Website URL'), 'example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Following example.com.');
    expect(screen.getByRole('link', { name: 'See followed websites' })).toHaveAttribute('href', '/connect/website/followed');
    expect(calls[0]).toEqual({ key: 'POST /api/connect/website', body: { url: 'https://example.com' } });
    expect(screen.getByLabelText('Website URL')).toHaveValue('');
  });

  it("shows the server's reason when it refuses", async () => {
    stubApi({
      'POST /api/connect/website': () =>
        json(422, { code: 'invalid_url', message: 'the website address must be a valid http(s) URL' }),
    });
    renderWithProviders(<FollowWebsiteForm />, { route: '/connect/website' });
    await userEvent.type(screen.getByLabelText('Website URL'), 'ftp://example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('the website address must be a valid http(s) URL');
  });

  it('says something went wrong when the server gives no reason', async () => {
    stubApi({ 'POST /api/connect/website': () => json(500, { code: 'internal', message: 'internal error' }) });
    renderWithProviders(<FollowWebsiteForm />, { route: '/connect/website' });
    await userEvent.type(screen.getByLabelText('Website URL'), 'https://example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again');
  });
});
