import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { AppSourcePage } from './app-source-page';
import { UNCONNECTED_APPS } from './apps-catalogue';
import { AppsPage } from './apps-page';

const privateSources = () =>
  json(200, {
    results: [
      { key: 'needldrive', label: 'Needl Drive', count: 3, connected: true },
      { key: 'ask_needl', label: 'AskNeedl attachments', count: 1, connected: true },
    ],
  });

describe('the apps page', () => {
  it('leads to Needl Drive and the AskNeedl attachments with their counts', async () => {
    stubApi({ 'GET /api/source/private': privateSources });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const working = screen.getByRole('list', { name: 'Apps you can use' });
    expect(await within(working).findByText('3 documents')).toBeInTheDocument();
    expect(within(working).getByText('1 document')).toBeInTheDocument();
    expect(within(working).getByRole('link', { name: 'Open Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
    expect(within(working).getByRole('link', { name: 'See attachments' })).toHaveAttribute('href', '/apps/ask_needl');
    expect(screen.queryByText(/coming soon/i)).not.toBeInTheDocument();
  });

  it('says plainly which apps cannot be connected here, and what to do instead of each', () => {
    stubApi({ 'GET /api/source/private': privateSources });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const cards = within(screen.getByRole('list', { name: 'Apps that cannot be connected' })).getAllByTestId('unconnected-app');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(UNCONNECTED_APPS.map((app) => app.name));
    const whatsapp = cards.find((card) => card.textContent?.includes('WhatsApp'))!;
    expect(whatsapp).toHaveTextContent('Chats: not connected');
    expect(whatsapp).toHaveTextContent('upload the .txt file to Needl Drive');
    expect(within(whatsapp).getByRole('link', { name: 'Upload to Needl Drive instead of WhatsApp' })).toHaveAttribute('href', '/apps/needldrive');
    cards.forEach((card) => expect(within(card).getAllByRole('link').length).toBeGreaterThan(0));
  });
});

describe('an app’s own address', () => {
  const renderApp = (route: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/apps/:source" element={<AppSourcePage />} />
        <Route path="/connect/app/:app" element={<AppSourcePage />} />
      </Routes>,
      { route },
    );

  it('says an app that cannot be connected is not, with the way in instead', () => {
    renderApp('/apps/googledrive');
    expect(screen.getByRole('heading', { name: 'Google Drive is not connected on this instance' })).toBeInTheDocument();
    expect(screen.getByText(/Download the files/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload to Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
    expect(screen.getByRole('link', { name: 'See all apps' })).toHaveAttribute('href', '/apps');
  });

  it('says the same of an app it does not know, from the connect address too', () => {
    renderApp('/connect/app/dropbox');
    expect(screen.getByRole('heading', { name: 'Dropbox is not connected on this instance' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Follow a website' })).toHaveAttribute('href', '/connect/website');
  });

  it('lists the AskNeedl attachments', async () => {
    stubApi({
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/source/rss': () => json(200, { results: [] }),
      'GET /api/documents?page=0&limit=20&source_id=ask_needl': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderApp('/apps/ask_needl');
    expect(await screen.findByRole('heading', { name: 'No attachments yet' })).toBeInTheDocument();
  });
});
