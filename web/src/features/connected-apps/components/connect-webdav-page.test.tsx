import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders } from '../../../test/render';
import {
  bodiesOf,
  connectedDrive as connected,
  FOLDER,
  stubConnectionApi as stubApi,
  WEBDAV_NOT_CONNECTED as NOT_CONNECTED,
} from '../test-fixtures';
import { ConnectWebdavPage } from './connect-webdav-page';

const render = () => renderWithProviders(<ConnectWebdavPage />, { route: '/connect/app/webdav' });

/** Fills the folder's fields as a person would. */
async function fillFolder({ url = FOLDER, username = 'ann', password = 'app-password' } = {}) {
  await userEvent.type(screen.getByLabelText('Folder address'), url);
  await userEvent.type(screen.getByLabelText('Account name'), username);
  await userEvent.type(screen.getByLabelText('Password'), password);
}

const ACCOUNT = { url: FOLDER, username: 'ann', password: 'app-password' };

describe('connecting a WebDAV folder', () => {
  it('checks the folder, lists the files it will import with their sizes, and connects it', async () => {
    let app = NOT_CONNECTED;
    let answerCheck: (response: Response) => void = () => {};
    const calls = stubApi({
      'GET /api/connect/apps/webdav': () => json(200, app),
      'POST /api/connect/webdav/check': () => new Promise<Response>((resolve) => (answerCheck = resolve)),
      'PUT /api/connect/webdav': () => {
        app = connected({ imported: 0, last_synced_at: null });
        return json(200, app);
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Connect a drive' })).toBeInTheDocument();
    expect(screen.getByText(/Needl watches one folder of a WebDAV drive — Nextcloud, ownCloud, a NAS —/)).toBeInTheDocument();
    expect(screen.getByLabelText('Folder address')).toHaveAttribute('type', 'url');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();

    // Spaces around the address and the name are not the user's meaning; the password's are.
    await fillFolder({ url: ` ${FOLDER} `, username: 'ann ' });
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    expect(bodiesOf(calls, 'POST /api/connect/webdav/check')).toEqual([ACCOUNT]);

    answerCheck(
      json(200, {
        files: [
          { name: 'Q1 figures.pdf', size: 1_572_864 },
          { name: 'Board minutes, March.docx', size: 20_480 },
          { name: 'notes.txt', size: 300 },
        ],
      }),
    );
    expect(await screen.findByText('The folder has 3 files Needl will import.')).toHaveAttribute('role', 'status');
    const files = screen.getByRole('list', { name: 'Files in the folder' });
    expect(within(files).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Q1 figures.pdf1.5 MB',
      'Board minutes, March.docx20 KB',
      'notes.txt300 B',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));

    const summary = await screen.findByRole('region', { name: 'Your drive' });
    expect(bodiesOf(calls, 'PUT /api/connect/webdav')).toEqual([ACCOUNT]);
    expect(await screen.findByText('Drive connected. Its files are on their way.')).toBeInTheDocument();
    expect(summary).toHaveTextContent(`Folder address${FOLDER}`);
    expect(summary).toHaveTextContent('Last syncedNot yet');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'WebDAV drive', level: 2 })).toHaveFocus();
  });

  it('says when the folder has nothing to import yet, and still connects it', async () => {
    let app = NOT_CONNECTED;
    const calls = stubApi({
      'GET /api/connect/apps/webdav': () => json(200, app),
      'POST /api/connect/webdav/check': () => json(200, { files: [] }),
      'PUT /api/connect/webdav': () => {
        app = connected({ url: 'http://nas.lan/dav/Reports/', imported: 0 });
        return json(200, app);
      },
    });
    render();
    await screen.findByLabelText('Folder address');
    await fillFolder({ url: 'http://nas.lan/dav/Reports/' });
    // Enter submits the form, like the button.
    await userEvent.type(screen.getByLabelText('Password'), '{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('The folder has no files Needl imports yet.');
    expect(screen.queryByRole('list', { name: 'Files in the folder' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('region', { name: 'Your drive' })).toBeInTheDocument();
    expect(bodiesOf(calls, 'PUT /api/connect/webdav')).toEqual([{ ...ACCOUNT, url: 'http://nas.lan/dav/Reports/' }]);
  });

  it('says what is missing or wrong before asking the server, under each field', async () => {
    const calls = stubApi({ 'GET /api/connect/apps/webdav': () => json(200, NOT_CONNECTED) });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Check folder' }));
    expect(screen.getByLabelText('Folder address')).toHaveAccessibleDescription(/Folder address is a required field$/);
    expect(screen.getByLabelText('Folder address')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Account name')).toHaveAccessibleDescription(/Account name is a required field$/);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/app password.* Password is a required field$/);

    await fillFolder({ url: 'cloud.example.com/Reports' });
    expect(screen.getByLabelText('Folder address')).not.toHaveAttribute('aria-invalid');
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    expect(screen.getByLabelText('Folder address')).toHaveAccessibleDescription(/must be a web address starting with https:\/\/$/);
    expect(screen.getByLabelText('Account name')).not.toHaveAttribute('aria-invalid');
    expect(calls.filter((c) => c.key.startsWith('POST'))).toEqual([]);
  });

  it('shows the drive’s refusal in an alert, and asks again once a field changes', async () => {
    let refusal: { code: string; message: string } | null = {
      code: 'webdav_credentials_refused',
      message: 'the drive refused the account name or password',
    };
    const calls = stubApi({
      'GET /api/connect/apps/webdav': () => json(200, NOT_CONNECTED),
      'POST /api/connect/webdav/check': () => (refusal ? json(422, refusal) : json(200, { files: [{ name: 'a.pdf', size: 1 }] })),
    });
    render();
    await screen.findByLabelText('Folder address');
    await fillFolder({ password: 'wrong' });
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The drive refused the account name or password.');
    expect(screen.queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Password'), '-fixed');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    refusal = { code: 'webdav_not_allowed', message: 'this server may not reach nas.lan over plain http' };
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This server may not reach nas.lan over plain http.');

    refusal = null;
    await userEvent.type(screen.getByLabelText('Account name'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    expect(await screen.findByRole('list', { name: 'Files in the folder' })).toHaveTextContent('a.pdf');
    expect(bodiesOf(calls, 'POST /api/connect/webdav/check')).toHaveLength(3);
  });

  it('shows a refused connection beside the files and keeps the form', async () => {
    stubApi({
      'GET /api/connect/apps/webdav': () => json(200, NOT_CONNECTED),
      'POST /api/connect/webdav/check': () => json(200, { files: [{ name: 'a.pdf', size: 2048 }] }),
      'PUT /api/connect/webdav': () => json(422, { code: 'webdav_not_a_folder', message: 'the address is a file, not a folder' }),
    });
    render();
    await screen.findByLabelText('Folder address');
    await fillFolder();
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The address is a file, not a folder.');
    expect(screen.getByRole('heading', { name: 'Connect a drive' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Files in the folder' })).toBeInTheDocument();
  });
});

describe('the connected drive', () => {
  it('shows the folder, the account and what came of it, leading to its documents', async () => {
    stubApi({ 'GET /api/connect/apps/webdav': () => json(200, connected()) });
    render();
    const summary = await screen.findByRole('region', { name: 'Your drive' });
    expect(summary).toHaveTextContent(`Folder address${FOLDER}`);
    expect(summary).toHaveTextContent('Accountann');
    expect(summary).toHaveTextContent(`Documents imported${(1234).toLocaleString()}`);
    expect(summary).toHaveTextContent('Last synced5 mins ago');
    expect(summary).not.toHaveTextContent('Folders');
    expect(screen.queryByRole('button', { name: 'Choose folders' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your drive documents' })).toHaveAttribute('href', '/apps/webdav');
  });

  it('shows the last failure with Reconnect, which opens the form filled in but the password and checks again', async () => {
    const app = connected({ last_error: 'the drive refused the account name or password' }, { tokenValid: false });
    const calls = stubApi({
      'GET /api/connect/apps/webdav': () => json(200, app),
      'POST /api/connect/webdav/check': () => json(200, { files: [] }),
    });
    render();
    const problem = await screen.findByRole('alert');
    expect(problem).toHaveTextContent('The drive no longer accepts the password — reconnect');
    expect(problem).toHaveTextContent('the drive refused the account name or password');
    await userEvent.click(within(problem).getByRole('button', { name: 'Reconnect' }));

    expect(screen.getByRole('heading', { name: 'Reconnect your drive' })).toBeInTheDocument();
    expect(screen.getByLabelText('Folder address')).toHaveValue(FOLDER);
    expect(screen.getByLabelText('Account name')).toHaveValue('ann');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await userEvent.type(screen.getByLabelText('Password'), 'new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Check folder' }));
    await screen.findByRole('button', { name: 'Connect' });
    expect(bodiesOf(calls, 'POST /api/connect/webdav/check')).toEqual([{ ...ACCOUNT, password: 'new-password' }]);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('region', { name: 'Your drive' })).toBeInTheDocument();
  });
});
