import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders } from '../../../test/render';
import {
  bodiesOf,
  connectedMail as connected,
  MAIL_NOT_CONNECTED as NOT_CONNECTED,
  stubConnectionApi as stubApi,
} from '../test-fixtures';
import { ConnectMailPage } from './connect-mail-page';

const render = () => renderWithProviders(<ConnectMailPage />, { route: '/connect/app/email' });

/** Fills the account fields as a person would. */
async function fillAccount({ host = 'imap.example.org', username = 'ada@example.org', password = 'app-password' } = {}) {
  await userEvent.type(screen.getByLabelText('Server'), host);
  await userEvent.type(screen.getByLabelText('Account name'), username);
  await userEvent.type(screen.getByLabelText('Password'), password);
}

describe('connecting a mailbox', () => {
  it('checks the account, lists its folders with INBOX ticked, and connects the folders chosen', async () => {
    let app = NOT_CONNECTED;
    let answerCheck: (response: Response) => void = () => {};
    const calls = stubApi({
      'GET /api/connect/apps/email': () => json(200, app),
      'POST /api/connect/mail/check': () => new Promise<Response>((resolve) => (answerCheck = resolve)),
      'PUT /api/connect/mail': (init) => {
        const { folders } = JSON.parse(String(init.body)) as { folders: string[] };
        app = connected({ folders, imported: 0, last_synced_at: null });
        return json(200, app);
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Connect a mailbox' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByRole('radio', { name: 'TLS (port 993)' })).toBeChecked();
    expect(screen.getByLabelText('Port (optional)')).toHaveAttribute('placeholder', '993');
    expect(screen.queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();

    await fillAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    const checking = screen.getByRole('button', { name: 'Checking…' });
    expect(checking).toBeDisabled();
    expect(bodiesOf(calls, 'POST /api/connect/mail/check')).toEqual([
      { host: 'imap.example.org', security: 'tls', username: 'ada@example.org', password: 'app-password' },
    ]);

    answerCheck(json(200, { folders: ['INBOX', 'Archive', 'Sent'] }));
    const folders = await screen.findByRole('group', { name: 'Folders to read' });
    expect(within(folders).getByRole('checkbox', { name: 'INBOX' })).toBeChecked();
    expect(within(folders).getByRole('checkbox', { name: 'Archive' })).not.toBeChecked();
    expect(within(folders).getByRole('checkbox', { name: 'Sent' })).not.toBeChecked();
    await userEvent.click(within(folders).getByRole('checkbox', { name: 'Archive' }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));

    expect(await screen.findByRole('heading', { name: 'Your mailbox' })).toBeInTheDocument();
    expect(bodiesOf(calls, 'PUT /api/connect/mail')).toEqual([
      {
        account: { host: 'imap.example.org', security: 'tls', username: 'ada@example.org', password: 'app-password' },
        folders: ['INBOX', 'Archive'],
      },
    ]);
    expect(await screen.findByText('Mailbox connected. Its mail is on its way.')).toBeInTheDocument();
    expect(screen.getByText('INBOX, Archive')).toBeInTheDocument();
    expect(screen.getByText('Not yet')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('sends the port typed and the security chosen, whose usual port the placeholder follows', async () => {
    const calls = stubApi({
      'GET /api/connect/apps/email': () => json(200, NOT_CONNECTED),
      'POST /api/connect/mail/check': () => json(200, { folders: ['INBOX'] }),
    });
    render();
    await userEvent.click(await screen.findByRole('radio', { name: 'STARTTLS (port 143)' }));
    expect(screen.getByLabelText('Port (optional)')).toHaveAttribute('placeholder', '143');
    expect(screen.getByRole('group', { name: 'Security' })).toHaveAccessibleDescription(/only for mail servers on networks its operator allowed/);
    await userEvent.click(screen.getByRole('radio', { name: 'Plain, unencrypted (local servers only)' }));
    await fillAccount({ host: 'mail.lan' });
    await userEvent.type(screen.getByLabelText('Port (optional)'), '1143');
    // Enter submits the form, like the button.
    await userEvent.type(screen.getByLabelText('Password'), '{Enter}');
    await screen.findByRole('group', { name: 'Folders to read' });
    expect(bodiesOf(calls, 'POST /api/connect/mail/check')).toEqual([
      { host: 'mail.lan', port: 1143, security: 'plain', username: 'ada@example.org', password: 'app-password' },
    ]);
  });

  it('says what is missing before asking the server, under each field', async () => {
    const calls = stubApi({ 'GET /api/connect/apps/email': () => json(200, NOT_CONNECTED) });
    render();
    await userEvent.type(await screen.findByLabelText('Port (optional)'), '99999');
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    expect(screen.getByLabelText('Server')).toHaveAccessibleDescription('Server is a required field');
    expect(screen.getByLabelText('Port (optional)')).toHaveAccessibleDescription('Port must be a number from 1 to 65535');
    expect(screen.getByLabelText('Account name')).toHaveAccessibleDescription(
      'Usually your whole email address. Account name is a required field',
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/app password.* Password is a required field$/);
    expect(calls.filter((c) => c.key.startsWith('POST'))).toEqual([]);
  });

  it('shows the mail server’s refusal in an alert, and asks again once a field changes', async () => {
    let refuse = true;
    stubApi({
      'GET /api/connect/apps/email': () => json(200, NOT_CONNECTED),
      'POST /api/connect/mail/check': () =>
        refuse
          ? json(422, { code: 'mail_credentials_refused', message: 'The mail server refused the account name or password.' })
          : json(200, { folders: ['INBOX'] }),
    });
    render();
    await screen.findByLabelText('Server');
    await fillAccount({ password: 'wrong' });
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The mail server refused the account name or password.');
    expect(screen.queryByRole('group', { name: 'Folders to read' })).not.toBeInTheDocument();

    refuse = false;
    await userEvent.type(screen.getByLabelText('Password'), '-fixed');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    expect(await screen.findByRole('checkbox', { name: 'INBOX' })).toBeChecked();
  });

  it('shows a lowercase server refusal as a sentence, and a refused connection beside the folders', async () => {
    stubApi({
      'GET /api/connect/apps/email': () => json(200, NOT_CONNECTED),
      'POST /api/connect/mail/check': () => json(200, { folders: ['INBOX', 'Archive'] }),
      'PUT /api/connect/mail': () => json(422, { code: 'mail_folder_not_found', message: 'the mail server has no folder "Archive"' }),
    });
    render();
    await screen.findByLabelText('Server');
    await fillAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'INBOX' }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose at least one folder to read.');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Archive' }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The mail server has no folder "Archive".');
    expect(screen.getByRole('heading', { name: 'Connect a mailbox' })).toBeInTheDocument();
  });

  it('brings the pricing prompt without asking the mail server when the plan is known not to include it', async () => {
    const calls = stubApi({
      'GET /api/feature/config': () => json(200, { features: { is_pricing: true } }),
      'GET /api/messaging/pricing': () =>
        json(200, { results: { connect_app: { isEligible: false, header: 'Connect your apps', message: 'Upgrade to connect your mailbox.' } } }),
      'GET /api/connect/apps/email': () => json(200, NOT_CONNECTED),
    });
    render();
    await screen.findByLabelText('Server');
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/messaging/pricing')).toBe(true));
    await fillAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Check and list folders' }));
    expect(await screen.findByRole('dialog', { name: 'Connect your apps' })).toHaveTextContent('Upgrade to connect your mailbox.');
    expect(calls.filter((c) => c.key === 'POST /api/connect/mail/check')).toEqual([]);
  });
});

describe('the connected mailbox', () => {
  it('shows what it reads and what came of it, without its password', async () => {
    stubApi({ 'GET /api/connect/apps/email': () => json(200, connected()) });
    render();
    const summary = await screen.findByRole('region', { name: 'Your mailbox' });
    expect(summary).toHaveTextContent('Serverimap.example.org:993');
    expect(summary).toHaveTextContent('SecurityTLS');
    expect(summary).toHaveTextContent('Accountada@example.org');
    expect(summary).toHaveTextContent('FoldersINBOX, Reports');
    expect(summary).toHaveTextContent(`Documents imported${(1234).toLocaleString()}`);
    expect(summary).toHaveTextContent('Last synced5 mins ago');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your mail documents' })).toHaveAttribute('href', '/apps/email');
  });

  it('shows the last failure with Reconnect, which opens the form filled in but the password', async () => {
    const app = connected(
      { security: 'start_tls', port: 1143, last_error: 'The mail server refused the account name or password.' },
      { tokenValid: false },
    );
    stubApi({ 'GET /api/connect/apps/email': () => json(200, app) });
    render();
    const problem = await screen.findByRole('alert');
    expect(problem).toHaveTextContent('The mail server no longer accepts the password — reconnect');
    expect(problem).toHaveTextContent('The mail server refused the account name or password.');
    await userEvent.click(within(problem).getByRole('button', { name: 'Reconnect' }));

    expect(screen.getByRole('heading', { name: 'Reconnect your mailbox' })).toBeInTheDocument();
    expect(screen.getByLabelText('Server')).toHaveValue('imap.example.org');
    expect(screen.getByRole('radio', { name: 'STARTTLS (port 143)' })).toBeChecked();
    expect(screen.getByLabelText('Port (optional)')).toHaveValue('1143');
    expect(screen.getByLabelText('Account name')).toHaveValue('ada@example.org');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('region', { name: 'Your mailbox' })).toBeInTheDocument();
  });

  it('chooses folders: unticks one, adds another by name, and saves', async () => {
    let app = connected();
    const calls = stubApi({
      'GET /api/connect/apps/email': () => json(200, app),
      'PUT /api/connect/mail/folders': (init) => {
        const { folders } = JSON.parse(String(init.body)) as { folders: string[] };
        app = connected({ folders });
        return json(200, app);
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose folders' }));
    const editor = screen.getByRole('form', { name: 'Folders to read' });
    expect(within(editor).getByRole('checkbox', { name: 'INBOX' })).toBeChecked();
    expect(within(editor).getByRole('checkbox', { name: 'INBOX' })).toHaveFocus();
    expect(within(editor).getByRole('checkbox', { name: 'Reports' })).toBeChecked();
    await userEvent.click(within(editor).getByRole('checkbox', { name: 'Reports' }));
    // Enter in the box adds the folder; it does not save.
    await userEvent.type(within(editor).getByLabelText('Add folder'), 'Archive/2026{Enter}');
    expect(within(editor).getByRole('checkbox', { name: 'Archive/2026' })).toBeChecked();
    expect(within(editor).getByLabelText('Add folder')).toHaveValue('');
    expect(calls.filter((c) => c.key === 'PUT /api/connect/mail/folders')).toHaveLength(0);

    await userEvent.click(within(editor).getByRole('button', { name: 'Save folders' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Folders to read' })).not.toBeInTheDocument());
    expect(bodiesOf(calls, 'PUT /api/connect/mail/folders')).toEqual([{ folders: ['INBOX', 'Archive/2026'] }]);
    expect(screen.getByRole('region', { name: 'Your mailbox' })).toHaveTextContent('FoldersINBOX, Archive/2026');
    expect(await screen.findByText('Folders saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Choose folders' })).toHaveFocus());
  });
});
