import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { AddRssForm } from './add-rss-form';

describe('AddRssForm', () => {
  it('requires a valid URL before calling the server', async () => {
    const calls = stubApi({});
    renderWithProviders(<AddRssForm />, { route: '/connect/rss' });
    await userEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    expect(screen.getByText('URL is a required field')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Feed URL'), 'not a url');
    await userEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    expect(screen.getByText('URL must be a valid URL')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the server's message when it refuses the address", async () => {
    stubApi({
      'POST /api/connect/rss': () =>
        json(422, { code: 'invalid_url', message: 'the feed address must start with http:// or https://' }),
    });
    renderWithProviders(<AddRssForm />, { route: '/connect/rss' });
    await userEvent.type(screen.getByLabelText('Feed URL'), 'ftp://example.com/feed');
    await userEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('the feed address must start with http:// or https://');
  });

  it('sends the address and label and clears the form', async () => {
    const calls = stubApi({
      'POST /api/connect/rss': () =>
        json(200, { source_id: 'rss_1', priority: 'MEDIUM', key: 'k', label: 'News', link_to_crawl: 'https://e.com/f', thumbnail_location: null }),
    });
    renderWithProviders(<AddRssForm />, { route: '/connect/rss' });
    await userEvent.type(screen.getByLabelText('Feed URL'), 'https://e.com/f');
    await userEvent.type(screen.getByLabelText('Label (optional)'), 'News');
    await userEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    await vi.waitFor(() => expect(screen.getByLabelText('Feed URL')).toHaveValue(''));
    expect(calls[0]).toEqual({ key: 'POST /api/connect/rss', body: { url: 'https://e.com/f', label: 'News' } });
  });

  it('keeps the next address typed while the first feed is being added', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    stubApi({
      'POST /api/connect/rss': async () => {
        await answered;
        return json(200, { source_id: 'rss_1', priority: 'MEDIUM', key: 'k', label: 'News', link_to_crawl: 'https://e.com/f', thumbnail_location: null });
      },
    });
    renderWithProviders(<AddRssForm />, { route: '/connect/rss' });
    const [url, label] = [screen.getByLabelText('Feed URL'), screen.getByLabelText('Label (optional)')];
    await userEvent.type(url, 'https://e.com/f');
    await userEvent.type(label, 'News');
    await userEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    await userEvent.clear(url);
    await userEvent.type(url, 'https://e.com/next');
    answer();
    await vi.waitFor(() => expect(label).toHaveValue(''));
    expect(url).toHaveValue('https://e.com/next');
  });
});
