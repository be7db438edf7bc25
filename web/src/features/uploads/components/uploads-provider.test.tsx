import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { UploadCalls } from '../run-upload';
import { UploadIndicator } from './upload-indicator';
import { UploadPanel } from './upload-panel';
import { UploadsProvider } from './uploads-provider';

const config = {
  data: {
    config: {
      file_types: ['pdf'],
      mime_types: ['application/pdf'],
      file_count_limit: 20,
      file_size_limit: 52_428_800,
      allow_folder_upload: false,
      file_name_suffixes: [],
    },
  },
};

/** Upload calls whose transfers the test drives: progress, then the end. */
function fakeCalls() {
  const transfers: Array<{ progress: (p: number) => void; finish: () => void }> = [];
  const calls: UploadCalls = {
    init: async (_source, files) =>
      files.map((f) => ({ id: f.id, upload_link: `/api/storage/${f.id}`, headers: {}, metadata_fields: { bucket: 'local', key: f.id } })),
    transfer: (_file, _link, _type, onProgress) =>
      new Promise<void>((resolve) => transfers.push({ progress: onProgress, finish: resolve })),
    complete: async (_source, files) => ({ files: files.map((f) => ({ id: f.metadata.id, status: 'PROCESSING' })), feed_id: null }),
    now: () => Date.now(),
  };
  return { calls, transfers };
}

function renderApp(calls: UploadCalls) {
  return renderWithProviders(
    <UploadsProvider calls={calls}>
      <header>
        <UploadIndicator />
        <Link to="/apps/needldrive">Drive</Link>
        <Link to="/settings/storage">Storage</Link>
      </header>
      <Routes>
        <Route path="/apps/needldrive" element={<UploadPanel source="needldrive" />} />
        <Route path="/settings/storage" element={<p>Storage page</p>} />
      </Routes>
    </UploadsProvider>,
    { route: '/apps/needldrive' },
  );
}

describe('UploadsProvider', () => {
  it('keeps uploads going across a route change, summed up in the indicator, and shows them on return', async () => {
    stubApi({ 'GET /api/upload/config?source=needldrive': () => json(200, config) });
    const { calls, transfers } = fakeCalls();
    renderApp(calls);
    expect(screen.queryByTestId('upload-indicator')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('Files to upload'), [
      new File(['%PDF-1.4 a'], 'a.pdf', { type: 'application/pdf' }),
      new File(['%PDF-1.4 b'], 'b.pdf', { type: 'application/pdf' }),
    ]);
    await waitFor(() => expect(transfers).toHaveLength(2));
    act(() => transfers[0].progress(50));

    const indicator = screen.getByTestId('upload-indicator');
    expect(within(indicator).getByRole('status')).toHaveTextContent('Uploading 2 files…');
    expect(within(indicator).getByRole('link', { name: 'Uploading 2 files…' })).toHaveAttribute('href', '/apps/needldrive');
    expect(within(indicator).getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '25');

    // Leave the drive mid-upload: the page goes, the uploads do not.
    await userEvent.click(screen.getByRole('link', { name: 'Storage' }));
    expect(screen.getByText('Storage page')).toBeInTheDocument();
    expect(screen.queryByTestId('upload-item')).not.toBeInTheDocument();
    act(() => transfers[0].progress(100));
    act(() => transfers[1].progress(100));
    expect(within(screen.getByTestId('upload-indicator')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    act(() => transfers.forEach((t) => t.finish()));
    await waitFor(() => expect(screen.getByTestId('upload-indicator')).toHaveTextContent('Processing 2 files…'));

    await userEvent.click(screen.getByRole('link', { name: 'Processing 2 files…' }));
    const rows = await screen.findAllByTestId('upload-item');
    expect(rows.map((r) => [r.textContent?.includes('a.pdf'), r.dataset.status])).toEqual([
      [true, 'PROCESSING'],
      [false, 'PROCESSING'],
    ]);
  });

  it("says a single file's upload in the singular and goes away when it ends", async () => {
    stubApi({ 'GET /api/upload/config?source=needldrive': () => json(200, config) });
    const { calls, transfers } = fakeCalls();
    calls.complete = async (_source, files) => ({ files: files.map((f) => ({ id: f.metadata.id, status: 'FAILED', error: 'quota' })), feed_id: null });
    renderApp(calls);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload File(s)' })).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('Files to upload'), new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }));
    expect(await screen.findByRole('link', { name: 'Uploading 1 file…' })).toBeInTheDocument();
    await waitFor(() => expect(transfers).toHaveLength(1));
    act(() => transfers[0].finish());
    await waitFor(() => expect(screen.queryByTestId('upload-indicator')).not.toBeInTheDocument());
    expect(screen.getByTestId('upload-item')).toHaveAttribute('data-status', 'FAILED');
  });
});
