import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import { EmptyStoragePage } from './empty-storage-page';

const MB = 1024 * 1024;
const ROUTE = { route: '/settings/storage/empty' };

describe('EmptyStoragePage', () => {
  it('explains an empty storage and leads to uploading in Needl Drive', async () => {
    stubApi({ 'GET /api/user/storage': () => json(200, { used_bytes: 0, quota_bytes: 1024 * MB, file_count: 0, by_type: [] }) });
    renderWithProviders(<EmptyStoragePage />, ROUTE);
    expect(await screen.findByRole('heading', { name: 'Your storage is empty' })).toBeInTheDocument();
    expect(screen.getByText(/up to 1 GB in all/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload to Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
  });

  it('says so when the storage holds files after all, and leads to it', async () => {
    stubApi({
      'GET /api/user/storage': () =>
        json(200, { used_bytes: 3 * MB, quota_bytes: null, file_count: 2, by_type: [{ mime_type: 'application/pdf', bytes: 3 * MB, count: 2 }] }),
    });
    renderWithProviders(<EmptyStoragePage />, ROUTE);
    expect(await screen.findByRole('heading', { name: 'Your storage is not empty' })).toBeInTheDocument();
    expect(screen.getByText('2 files use 3 MB.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your storage' })).toHaveAttribute('href', '/settings/storage');
  });

  it('says when the storage cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/user/storage': () =>
        ++calls === 1
          ? json(500, { code: 'internal', message: 'internal error' })
          : json(200, { used_bytes: 0, quota_bytes: MB, file_count: 0, by_type: [] }),
    });
    renderWithProviders(<EmptyStoragePage />, ROUTE);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your storage could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Your storage is empty' })).toBeInTheDocument();
  });
});
