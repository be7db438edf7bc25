import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { installFakeXhr } from '../../../test/fake-xhr';
import { UploadPanel } from './upload-panel';
import { UploadsProvider } from './uploads-provider';

const config = {
  data: {
    config: {
      file_types: ['pdf', 'md'],
      mime_types: ['application/pdf', 'text/markdown'],
      file_count_limit: 20,
      file_size_limit: 52_428_800,
      allow_folder_upload: true,
      file_name_suffixes: [],
    },
  },
};

const pdf = (name = 'report.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

/** Answers init with one local link per declared file. */
const initAnswer = (init: RequestInit) => {
  const body = JSON.parse(String(init.body)) as { files: Array<{ id: string }> };
  return json(200, {
    upload_configs: body.files.map((f) => ({
      id: f.id,
      upload_link: `/api/storage/u1/${f.id}`,
      headers: {},
      metadata_fields: { bucket: 'local', key: `u1/${f.id}` },
    })),
  });
};

const renderPanel = () =>
  renderWithProviders(
    <UploadsProvider>
      <UploadPanel source="needldrive" />
    </UploadsProvider>,
    { route: '/apps/needldrive' },
  );

describe('UploadPanel', () => {
  it('offers the upload button and the drop zone once the limits are known', async () => {
    stubApi({ 'GET /api/upload/config?source=needldrive': () => json(200, config) });
    renderPanel();
    const zone = screen.getByRole('group', { name: 'Upload files' });
    expect(within(zone).getByText('Drop files here')).toBeInTheDocument();
    const button = within(zone).getByRole('button', { name: 'Upload File(s)' });
    await waitFor(() => expect(button).toBeEnabled());
    expect(zone).toHaveAccessibleDescription('Up to 20 files at a time, 50 MB each. PDF, MD.');
    expect(screen.getByLabelText('Files to upload')).toHaveAttribute('accept', '.pdf,.md,application/pdf,text/markdown');
  });

  it('opens the file picker from the keyboard', async () => {
    stubApi({ 'GET /api/upload/config?source=needldrive': () => json(200, config) });
    renderPanel();
    const button = screen.getByRole('button', { name: 'Upload File(s)' });
    await waitFor(() => expect(button).toBeEnabled());
    const picker = vi.spyOn(screen.getByLabelText<HTMLInputElement>('Files to upload'), 'click');
    button.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    expect(picker).toHaveBeenCalledTimes(2);
  });

  it('uploads with progress, then processes, then shows the file completed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const Xhr = installFakeXhr();
    let polled = 0;
    const routes: Parameters<typeof stubApi>[0] = {
      'GET /api/upload/config?source=needldrive': () => json(200, config),
      'POST /api/upload/init': initAnswer,
      'POST /api/upload/complete': (init) => {
        const body = JSON.parse(String(init.body)) as { files: Array<{ metadata: { id: string } }> };
        return json(200, { files: body.files.map((f) => ({ id: f.metadata.id, status: 'PROCESSING' })), feed_id: null });
      },
    };
    const calls = stubApi(routes);
    renderPanel();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.upload(screen.getByLabelText('Files to upload'), pdf());

    await waitFor(() => expect(Xhr.sent).toHaveLength(1));
    const init = calls.find((c) => c.key === 'POST /api/upload/init')?.body as { source: string; files: Array<{ id: string }> };
    expect(init).toMatchObject({ source: 'needldrive', files: [{ name: 'report.pdf', mime_type: 'application/pdf', size: 8 }] });
    const id = init.files[0].id;
    expect(Xhr.sent[0].headers['Content-Type']).toBe('application/pdf');

    act(() => Xhr.sent[0].progress(4, 8));
    expect(await screen.findByRole('progressbar', { name: 'Uploading report.pdf' })).toHaveAttribute('aria-valuenow', '50');

    // Status is polled from the 5 s mark: the first answer says processing, the second completed.
    const status = vi.fn(() =>
      json(200, { results: [{ id, name: 'report.pdf', status: polled++ === 0 ? 'PROCESSING' : 'COMPLETED', deeplink: 'needldrive/u1:r' }] }),
    );
    routes[`GET /api/upload/status?ids=${id}`] = status;
    act(() => Xhr.sent[0].respond(201, '{"size":8}'));
    const row = await screen.findByTestId('upload-item');
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'PROCESSING'));
    expect(within(row).getByText('Processing')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(status).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'COMPLETED'));
    expect(within(row).getByText('Completed')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(status).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('refuses a file the source does not take with the spec message, uploading nothing', async () => {
    const calls = stubApi({ 'GET /api/upload/config?source=needldrive': () => json(200, config) });
    renderPanel();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    const input = screen.getByLabelText('Files to upload');
    await userEvent.upload(input, new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }), { applyAccept: false });
    expect(await screen.findByText('File setup.exe type: application/x-msdownload not allowed')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).not.toContain('POST /api/upload/init');
  });

  it('shows the failure toast and marks the files when no upload link can be had', async () => {
    stubApi({
      'GET /api/upload/config?source=needldrive': () => json(200, config),
      'POST /api/upload/init': () => json(500, { code: 'internal', message: 'internal error' }),
    });
    renderPanel();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('Files to upload'), pdf());
    expect(await screen.findByText('File(s) upload failed. Please try again.')).toBeInTheDocument();
    const row = screen.getByTestId('upload-item');
    expect(row).toHaveAttribute('data-status', 'UPLOADING_ERROR');
    expect(within(row).getByText(/Error getting upload configs/)).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Dismiss report.pdf' }));
    expect(screen.queryByTestId('upload-item')).not.toBeInTheDocument();
  });

  it("shows the server's own refusal, such as a full quota", async () => {
    stubApi({
      'GET /api/upload/config?source=needldrive': () => json(200, config),
      'POST /api/upload/init': () =>
        json(422, { code: 'storage_quota_exceeded', message: 'Not enough storage: 1.0 GB of 1.0 GB used' }),
    });
    renderPanel();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('Files to upload'), pdf());
    expect(await screen.findByRole('alert')).toHaveTextContent('Not enough storage: 1.0 GB of 1.0 GB used');
  });

  it('says uploading is off when the limits cannot be loaded, and can try again', async () => {
    stubApi({ 'GET /api/upload/config?source=needldrive': () => json(500, { code: 'internal', message: 'x' }) });
    renderPanel();
    expect(await screen.findByText(/upload limits could not be loaded/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
