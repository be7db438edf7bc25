import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { AppSourcePage } from './app-source-page';
import type { ConnectedApp } from '../../features/connected-apps';
import { UNCONNECTED_APPS } from './apps-catalogue';
import { AppsPage } from './apps-page';

const privateSources = () =>
  json(200, {
    results: [
      { key: 'needldrive', label: 'Needl Drive', count: 3, connected: true },
      { key: 'ask_needl', label: 'AskNeedl attachments', count: 1, connected: true },
    ],
  });

const app = (key: string, label: string, category: string, more: Partial<ConnectedApp> = {}): ConnectedApp => ({
  key,
  label,
  category,
  disabled: true,
  flag: null,
  private: true,
  tokenValid: null,
  connected: false,
  missing: `${label}'s API needs credentials this server does not have.`,
  instead: `Do this instead of ${label}.`,
  mail: null,
  drive: null,
  ...more,
});

const MAIL_APP = app('email', 'Email (IMAP)', 'Emails', { disabled: false, missing: null, instead: null });
const WEBDAV_APP = app('webdav', 'WebDAV drive', 'Drives', { disabled: false, missing: null, instead: null });

const CONNECTED_WEBDAV: ConnectedApp = {
  ...WEBDAV_APP,
  connected: true,
  tokenValid: true,
  drive: {
    url: 'https://cloud.example.com/remote.php/dav/files/ann/Reports/',
    username: 'ann',
    imported: 1,
    connected_at: '2026-01-01T00:00:00Z',
    last_synced_at: '2026-01-02T00:00:00Z',
    last_error: null,
    syncing: false,
  },
};

const CONNECTED_MAIL = {
  ...MAIL_APP,
  connected: true,
  tokenValid: true,
  mail: {
    host: 'imap.example.org',
    port: 993,
    security: 'tls' as const,
    username: 'ada@example.org',
    folders: ['INBOX'],
    imported: 1234,
    connected_at: '2026-01-01T00:00:00Z',
    last_synced_at: '2026-01-02T00:00:00Z',
    last_error: null,
    syncing: false,
  },
};

/** The apps the server lists today, with the mail and WebDAV apps as given. */
const serverApps = (mail: ConnectedApp, webdav: ConnectedApp = WEBDAV_APP) => () =>
  json(200, {
    apps: [
      mail,
      webdav,
      app('gmail', 'Gmail', 'Emails', { instead: 'Connect Gmail as Email (IMAP): server imap.gmail.com, port 993, TLS.' }),
      app('outlook', 'Outlook', 'Emails'),
      app('whatsapp', 'WhatsApp', 'Chats', { flag: 'is_pulse_whatsapp_verification_enabled' }),
      app('telegram', 'Telegram', 'Chats'),
      app('googledrive', 'Google Drive', 'Drives'),
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

  it('shows the connected mailbox: as whom, with how many documents, leading to where it is managed', async () => {
    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(CONNECTED_MAIL) });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const mail = await screen.findByTestId('mail-app');
    expect(within(screen.getByRole('list', { name: 'Apps you can use' })).getByTestId('mail-app')).toBe(mail);
    expect(within(mail).getByRole('heading', { name: 'Email (IMAP)' })).toBeInTheDocument();
    expect(await within(mail).findByText(`Connected as ada@example.org · ${(1234).toLocaleString()} documents`)).toBeInTheDocument();
    expect(within(mail).getByRole('link', { name: 'Manage email' })).toHaveAttribute('href', '/connect/app/email');
    expect(mail).not.toHaveTextContent('no longer accepts');
  });

  it('says when the mail server no longer accepts the password, and when no mailbox is connected', async () => {
    const refused = { ...CONNECTED_MAIL, tokenValid: false };
    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(refused) });
    const { unmount } = renderWithProviders(<AppsPage />, { route: '/apps' });
    expect(await screen.findByText('The mail server no longer accepts the password — reconnect')).toBeInTheDocument();
    unmount();

    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(MAIL_APP) });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const mail = await screen.findByTestId('mail-app');
    expect(await within(mail).findByText('Not connected')).toBeInTheDocument();
    expect(within(mail).getByRole('link', { name: 'Connect email' })).toHaveAttribute('href', '/connect/app/email');
  });

  it('shows the WebDAV drive beside the mailbox: not connected, then connected as whom and with how many documents', async () => {
    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(MAIL_APP) });
    const { unmount } = renderWithProviders(<AppsPage />, { route: '/apps' });
    const working = screen.getByRole('list', { name: 'Apps you can use' });
    const drive = await within(working).findByTestId('webdav-app');
    expect(within(drive).getByRole('heading', { name: 'WebDAV drive' })).toBeInTheDocument();
    expect(drive).toHaveTextContent('Nextcloud, ownCloud or NAS');
    expect(await within(drive).findByText('Not connected')).toBeInTheDocument();
    expect(within(drive).getByRole('link', { name: 'Connect a drive' })).toHaveAttribute('href', '/connect/app/webdav');
    // The cards follow the server's order: mail, then the drive.
    const cards = within(working).getAllByRole('listitem');
    expect(cards.indexOf(screen.getByTestId('mail-app'))).toBe(cards.indexOf(drive) - 1);
    unmount();

    stubApi({
      'GET /api/source/private': privateSources,
      'GET /api/connect/apps': serverApps(MAIL_APP, { ...CONNECTED_WEBDAV, tokenValid: false }),
    });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const connected = await screen.findByTestId('webdav-app');
    expect(await within(connected).findByText('Connected as ann · 1 document')).toBeInTheDocument();
    expect(within(connected).getByText('The drive no longer accepts the password — reconnect')).toBeInTheDocument();
    expect(within(connected).getByRole('link', { name: 'Manage the drive' })).toHaveAttribute('href', '/connect/app/webdav');
    expect(screen.getByTestId('mail-app')).toHaveTextContent('Not connected');
    expect(screen.getByTestId('mail-app')).not.toHaveTextContent('no longer accepts');
  });

  it('leaves the WebDAV card out when the server says it cannot be connected here', async () => {
    const disabled = { ...WEBDAV_APP, disabled: true, missing: 'WebDAV is turned off here.', instead: 'Upload the files instead.' };
    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(MAIL_APP, disabled) });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const list = screen.getByRole('list', { name: 'Apps that cannot be connected' });
    expect(await within(list).findByText('WebDAV is turned off here.')).toBeInTheDocument();
    expect(screen.queryByTestId('webdav-app')).not.toBeInTheDocument();
    expect(screen.getByTestId('mail-app')).toBeInTheDocument();
  });

  it('lists the apps the server cannot connect in its words, then the others it does not know of', async () => {
    stubApi({ 'GET /api/source/private': privateSources, 'GET /api/connect/apps': serverApps(MAIL_APP) });
    renderWithProviders(<AppsPage />, { route: '/apps' });
    const list = screen.getByRole('list', { name: 'Apps that cannot be connected' });
    const gmail = await within(list).findByText(/Connect Gmail as Email \(IMAP\)/);
    const names = within(list)
      .getAllByTestId('unconnected-app')
      .map((card) => within(card).getByRole('heading').textContent);
    expect(names).toEqual(['Gmail', 'Outlook', 'WhatsApp', 'Telegram', 'Google Drive', 'OneDrive', 'Web clipper', 'X (Twitter)', 'LinkedIn']);
    const gmailCard = gmail.closest('li')!;
    expect(gmailCard).toHaveTextContent('Emails: not connected');
    expect(gmailCard).toHaveTextContent("Gmail's API needs credentials this server does not have.");
    expect(within(gmailCard).getByRole('link', { name: 'Connect as Email (IMAP) instead of Gmail' })).toHaveAttribute('href', '/connect/app/email');
    expect(within(gmailCard).getByRole('link', { name: 'Upload to Needl Drive instead of Gmail' })).toHaveAttribute('href', '/apps/needldrive');
    const telegram = within(list).getAllByTestId('unconnected-app')[3];
    expect(telegram).toHaveTextContent('Do this instead of Telegram.');
    expect(within(telegram).queryByRole('link', { name: /Connect as Email/ })).not.toBeInTheDocument();
    // The mail app works, so it is not among them.
    expect(within(list).queryByText('Email (IMAP)')).not.toBeInTheDocument();
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

  it('uses the server’s words for an app it lists, and leads a mailbox to Email (IMAP)', async () => {
    stubApi({
      'GET /api/connect/apps/gmail': () =>
        json(200, app('gmail', 'Gmail', 'Emails', { instead: 'Connect Gmail as Email (IMAP): server imap.gmail.com.' })),
    });
    renderApp('/apps/gmail');
    expect(await screen.findByText('Connect Gmail as Email (IMAP): server imap.gmail.com.')).toBeInTheDocument();
    expect(screen.getByText("Gmail's API needs credentials this server does not have.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect as Email (IMAP)' })).toHaveAttribute('href', '/connect/app/email');
  });

  it('connects a mailbox at the mail app’s connect address', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/connect/apps/email': () => json(200, MAIL_APP),
    });
    renderApp('/connect/app/email');
    expect(await screen.findByRole('heading', { name: 'Connect a mailbox' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your mail documents' })).toHaveAttribute('href', '/apps/email');
  });

  it('connects a WebDAV drive at its connect address', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/connect/apps/webdav': () => json(200, WEBDAV_APP),
    });
    renderApp('/connect/app/webdav');
    expect(await screen.findByRole('heading', { name: 'Connect a drive' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'WebDAV drive', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your drive documents' })).toHaveAttribute('href', '/apps/webdav');
  });

  it('lists the drive’s documents, with the way to manage the connection, or says none came yet', async () => {
    stubApi({
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/source/rss': () => json(200, { results: [] }),
      'GET /api/documents?page=0&limit=20&source_id=webdav': () => json(200, { results: [], page: 0, has_more: false }),
    });
    renderApp('/apps/webdav');
    const empty = await screen.findByRole('heading', { name: 'No drive documents yet' });
    expect(empty.parentElement).toHaveTextContent('Files from the WebDAV folder you connect show up here.');
    expect(screen.getByRole('link', { name: 'Connect a drive' })).toHaveAttribute('href', '/connect/app/webdav');
    expect(screen.getByRole('link', { name: 'Manage the drive connection' })).toHaveAttribute('href', '/connect/app/webdav');
  });

  it('lists the mail documents, with the way to manage the connection', async () => {
    stubApi({
      'GET /api/doc/read_status': () => json(200, { results: [] }),
      'GET /api/feature/config': () => json(200, { features: {} }),
      'GET /api/source/rss': () => json(200, { results: [] }),
      'GET /api/documents?page=0&limit=20&source_id=email': () =>
        json(200, {
          results: [
            {
              deeplink: 'mail-1',
              source: 'email',
              link: null,
              title: 'Quarterly figures',
              author: 'Grace <grace@example.org>',
              published_at: '2026-01-02T09:00:00Z',
              summary: null,
              metadata: {},
              ingested_at: '2026-01-02T09:05:00Z',
              read: false,
            },
          ],
          page: 0,
          has_more: false,
        }),
    });
    renderApp('/apps/email');
    expect(await screen.findByRole('article', { name: /Quarterly figures/ })).toHaveTextContent('Email');
    expect(screen.getByRole('link', { name: 'Manage the mail connection' })).toHaveAttribute('href', '/connect/app/email');
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
