import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { json, renderWithProviders } from '../../../test/render';
import type { ConnectedApp, ConnectionState } from '../api/apps-api';
import { SYNC_POLL_MS } from '../hooks/use-connected-app';
import {
  bodiesOf,
  connectedDrive,
  connectedMail,
  FOLDER,
  MAIL_NOT_CONNECTED,
  stubConnectionApi as stubApi,
  WEBDAV_NOT_CONNECTED,
} from '../test-fixtures';
import { ConnectMailPage } from './connect-mail-page';
import { ConnectWebdavPage } from './connect-webdav-page';

/** One connection's page, and what it says where the two pages behave alike. */
interface PageCase {
  name: string;
  page: ReactElement;
  route: string;
  /** Where the app's state is read, and its own calls made. */
  state: string;
  calls: string;
  notConnected: ConnectedApp;
  connected: (state?: Partial<ConnectionState>) => ConnectedApp;
  /** Fills the form as a person would, ready to check. */
  fill: () => Promise<void>;
  checkLabel: string;
  heading: string;
  formHeading: string;
  summary: string;
  noun: string;
  syncToast: string;
  disconnectTitle: string;
  /** What the disconnect dialog says Needl stops reading. */
  subject: string;
  disconnectedToast: string;
}

const type = async (label: string, text: string) => userEvent.type(screen.getByLabelText(label), text);

const CASES: PageCase[] = [
  {
    name: 'mail',
    page: <ConnectMailPage />,
    route: '/connect/app/email',
    state: '/api/connect/apps/email',
    calls: '/api/connect/mail',
    notConnected: MAIL_NOT_CONNECTED,
    connected: (state) => connectedMail(state),
    fill: async () => {
      await type('Server', 'imap.example.org');
      await type('Account name', 'ada@example.org');
      await type('Password', 'app-password');
    },
    checkLabel: 'Check and list folders',
    heading: 'Email (IMAP)',
    formHeading: 'Connect a mailbox',
    summary: 'Your mailbox',
    noun: 'mail',
    syncToast: 'Checking for new mail…',
    disconnectTitle: 'Disconnect your mailbox?',
    subject: 'ada@example.org',
    disconnectedToast: 'Mailbox disconnected. Its documents stay.',
  },
  {
    name: 'WebDAV',
    page: <ConnectWebdavPage />,
    route: '/connect/app/webdav',
    state: '/api/connect/apps/webdav',
    calls: '/api/connect/webdav',
    notConnected: WEBDAV_NOT_CONNECTED,
    connected: (state) => connectedDrive(state),
    fill: async () => {
      await type('Folder address', FOLDER);
      await type('Account name', 'ann');
      await type('Password', 'app-password');
    },
    checkLabel: 'Check folder',
    heading: 'WebDAV drive',
    formHeading: 'Connect a drive',
    summary: 'Your drive',
    noun: 'drive',
    syncToast: 'Checking the folder for new files…',
    disconnectTitle: 'Disconnect your drive?',
    subject: FOLDER,
    disconnectedToast: 'Drive disconnected. Its documents stay.',
  },
];

describe.each(CASES)('the $name connection page', (c) => {
  const render = () => renderWithProviders(c.page, { route: c.route });

  it('says it is loading, then says when it cannot load, and tries again', async () => {
    let reads = 0;
    let answer: (response: Response) => void = () => {};
    stubApi({
      [`GET ${c.state}`]: () => (++reads === 1 ? new Promise<Response>((resolve) => (answer = resolve)) : json(200, c.notConnected)),
    });
    render();
    expect(await screen.findByRole('status', { name: `Loading your ${c.noun} connection` })).toBeInTheDocument();
    answer(json(500, { code: 'internal', message: 'internal error' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Your ${c.noun} connection could not be loaded`);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: c.formHeading })).toBeInTheDocument();
  });

  it('brings the pricing prompt, not an inline error, when the plan does not include connecting apps', async () => {
    stubApi({
      [`GET ${c.state}`]: () => json(200, c.notConnected),
      [`POST ${c.calls}/check`]: () => json(403, { code: 'plan_required', message: 'Connecting apps is not part of your plan.' }),
    });
    render();
    await screen.findByLabelText('Password');
    await c.fill();
    await userEvent.click(screen.getByRole('button', { name: c.checkLabel }));
    expect(await screen.findByRole('dialog', { name: 'Upgrade your plan' })).toHaveTextContent('Connecting apps is not part of your plan.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for a sync, says so, and asks again while it runs until the server recorded it', async () => {
    let app = c.connected();
    let readsSinceSync: number | null = null;
    const calls = stubApi({
      [`GET ${c.state}`]: () => {
        // The server reads it on the first read after the request, and has recorded it by the second.
        if (readsSinceSync !== null) {
          readsSinceSync += 1;
          if (readsSinceSync === 1) app = c.connected({ syncing: true });
          if (readsSinceSync === 2) app = c.connected({ imported: 1240, last_synced_at: new Date().toISOString() });
        }
        return json(200, app);
      },
      [`POST ${c.calls}/sync`]: () => {
        readsSinceSync = 0;
        return json(202, app);
      },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      render();
      await user.click(await screen.findByRole('button', { name: 'Sync now' }));
      expect(await screen.findByText(c.syncToast)).toBeInTheDocument();
      expect(bodiesOf(calls, `POST ${c.calls}/sync`)).toEqual([{}]);
      const summary = screen.getByRole('region', { name: c.summary });
      await waitFor(() => expect(readsSinceSync).toBe(1));
      expect(summary).toHaveTextContent('Last synced5 mins ago');
      await act(() => vi.advanceTimersByTimeAsync(SYNC_POLL_MS));
      await waitFor(() => expect(summary).toHaveTextContent('Last syncedjust now'));
      expect(summary).toHaveTextContent(`Documents imported${(1240).toLocaleString()}`);
      // Recorded: it is not asked again.
      await act(() => vi.advanceTimersByTimeAsync(SYNC_POLL_MS * 3));
      expect(readsSinceSync).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says in a toast why a sync was refused', async () => {
    stubApi({
      [`GET ${c.state}`]: () => json(200, c.connected()),
      [`POST ${c.calls}/sync`]: () => json(404, { code: 'not_found', message: 'nothing is connected' }),
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Nothing is connected.')).toBeInTheDocument();
  });

  it('disconnects after saying that the documents stay, and offers the form again', async () => {
    let app = c.connected();
    const calls = stubApi({
      [`GET ${c.state}`]: () => json(200, app),
      [`DELETE ${c.calls}`]: () => {
        app = c.notConnected;
        return new Response(null, { status: 204 });
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = screen.getByRole('dialog', { name: c.disconnectTitle });
    expect(dialog).toHaveTextContent(`Needl stops reading ${c.subject}. The documents it brought in stay in your documents`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.key === `DELETE ${c.calls}`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByRole('heading', { name: c.formHeading })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.key === `DELETE ${c.calls}`)).toHaveLength(1);
    expect(await screen.findByText(c.disconnectedToast)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: c.heading, level: 2 })).toHaveFocus();
    expect(screen.getByLabelText('Account name')).toHaveValue('');
  });
});
