import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { StoragePage } from './storage-page';

const MB = 1024 * 1024;

describe('StoragePage', () => {
  it('shows used against the quota as a bar, and the space each type takes', async () => {
    stubApi({
      'GET /api/user/storage': () =>
        json(200, {
          used_bytes: 256 * MB + 512 * 1024,
          quota_bytes: 1024 * MB,
          file_count: 3,
          by_type: [
            { mime_type: 'text/markdown', bytes: 512 * 1024, count: 1 },
            { mime_type: 'application/pdf', bytes: 256 * MB, count: 2 },
          ],
        }),
    });
    renderWithProviders(<StoragePage />, { route: '/settings/storage' });
    const bar = await screen.findByRole('progressbar', { name: 'Storage used' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuetext', '256.5 MB of 1 GB used');
    expect(screen.getByText('256.5 MB of 1 GB used')).toBeInTheDocument();
    expect(screen.getByText(/3 files/)).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['PDF2256 MB', 'Markdown1512 KB']);
    // Each type leads to its files in Needl Drive.
    expect(within(rows[0]).getByRole('link', { name: 'PDF' })).toHaveAttribute('href', '/settings/storage/needldrive/application%2Fpdf');
    expect(within(rows[1]).getByRole('link', { name: 'Markdown' })).toHaveAttribute('href', '/settings/storage/needldrive/text%2Fmarkdown');
    expect(screen.getByRole('link', { name: 'Storage' })).toHaveAttribute('aria-current', 'page');
  });

  it('warns when the storage is almost full', async () => {
    stubApi({
      'GET /api/user/storage': () =>
        json(200, { used_bytes: 950 * MB, quota_bytes: 1000 * MB, file_count: 1, by_type: [{ mime_type: 'application/pdf', bytes: 950 * MB, count: 1 }] }),
    });
    renderWithProviders(<StoragePage />, { route: '/settings/storage' });
    expect(await screen.findByText(/almost full/)).toBeInTheDocument();
  });

  it('shows an empty state with the way to the drive when nothing is uploaded', async () => {
    stubApi({ 'GET /api/user/storage': () => json(200, { used_bytes: 0, quota_bytes: 1024 * MB, file_count: 0, by_type: [] }) });
    renderWithProviders(<StoragePage />, { route: '/settings/storage' });
    expect(await screen.findByRole('heading', { name: 'No files yet' })).toBeInTheDocument();
    expect(screen.getByText('0 B of 1 GB used')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload to Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when the storage cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/user/storage': () =>
        ++calls === 1
          ? json(500, { code: 'internal', message: 'internal error' })
          : json(200, { used_bytes: 0, quota_bytes: MB, file_count: 0, by_type: [] }),
    });
    renderWithProviders(<StoragePage />, { route: '/settings/storage' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your storage could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No files yet' })).toBeInTheDocument();
  });
});
