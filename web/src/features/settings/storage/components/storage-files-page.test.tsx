import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import type { StoredFile } from '../api/storage-files-api';
import { PAGES_PER_LOOK, StorageFilesPage } from './storage-files-page';

const MB = 1024 * 1024;
const PDF = 'application/pdf';

const file = (n: number, mime = PDF): StoredFile => ({
  deeplink: `doc-${n}`,
  source: 'needldrive',
  title: `Document ${n}`,
  ingested_at: '2025-03-04T10:00:00Z',
  access_key: `key-${n}`,
  metadata: { original_file_name: `file-${n}.${mime === PDF ? 'pdf' : 'md'}`, mime_type: mime, size: String(MB) },
});

const usage = (count: number) => ({
  used_bytes: count * MB,
  quota_bytes: 1024 * MB,
  file_count: count,
  by_type: [{ mime_type: PDF, bytes: count * MB, count }],
});

const documentsPath = (page: number) => `GET /api/documents?page=${page}&limit=100&source_id=needldrive`;

function renderAt(route: string) {
  return renderWithProviders(<StorageFilesPage />, { route, path: '/settings/storage/:app/:type' });
}

describe('StorageFilesPage', () => {
  it('lists the drive’s files of the type in the address, across pages, each leading to its preview', async () => {
    const calls = stubApi({
      'GET /api/user/storage': () => json(200, usage(2)),
      [documentsPath(0)]: () => json(200, { results: [file(1), file(2, 'text/markdown')], page: 0, has_more: true }),
      [documentsPath(1)]: () => json(200, { results: [file(3)], page: 1, has_more: false }),
    });
    renderAt('/settings/storage/needldrive/application%2Fpdf');
    expect(screen.getByRole('heading', { name: 'PDF files in Needl Drive' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'PDF files' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(['file-1.pdf', 'file-3.pdf']);
    expect(items[0]).toHaveTextContent('1 MB · uploaded 04-03-2025');
    expect(within(items[0]).getByRole('link')).toHaveAttribute('href', '/preview/apps/doc-1?source=needldrive&access_key=key-1');
    expect(screen.getByText('2 MB')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain(documentsPath(1));
    expect(screen.getByRole('link', { name: 'All file types' })).toHaveAttribute('href', '/settings/storage');
  });

  it('stops after the newest thousand files and looks further back when asked', async () => {
    const pages = Object.fromEntries(
      Array.from({ length: PAGES_PER_LOOK + 1 }, (_, page) => [
        documentsPath(page),
        () =>
          json(200, {
            results: [file(page, page === PAGES_PER_LOOK ? PDF : 'text/markdown')],
            page,
            has_more: page < PAGES_PER_LOOK,
          }),
      ]),
    );
    const calls = stubApi({ 'GET /api/user/storage': () => json(200, usage(1)), ...pages });
    renderAt('/settings/storage/needldrive/application%2Fpdf');
    expect(await screen.findByText('None of your newest files is of this type.')).toBeInTheDocument();
    expect(calls.filter((c) => c.key.startsWith('GET /api/documents'))).toHaveLength(PAGES_PER_LOOK);
    await userEvent.click(screen.getByRole('button', { name: 'Look through older files' }));
    expect(await screen.findByRole('link', { name: `file-${PAGES_PER_LOOK}.pdf` })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Look through older files' })).not.toBeInTheDocument();
  });

  it('says when no file is of the type, and leads to the drive', async () => {
    stubApi({
      'GET /api/user/storage': () => json(200, usage(0)),
      [documentsPath(0)]: () => json(200, { results: [file(1, 'text/markdown')], page: 0, has_more: false }),
    });
    renderAt('/settings/storage/needldrive/application%2Fpdf');
    expect(await screen.findByRole('heading', { name: 'No PDF files' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload to Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
  });

  it('says how many counted files are not listed yet (still being processed)', async () => {
    stubApi({
      'GET /api/user/storage': () => json(200, usage(3)),
      [documentsPath(0)]: () => json(200, { results: [file(1)], page: 0, has_more: false }),
    });
    renderAt('/settings/storage/needldrive/application%2Fpdf');
    expect(await screen.findByText('2 more files are still being processed; they show here once ready.')).toBeInTheDocument();
  });

  it('says when the files cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubApi({
      'GET /api/user/storage': () => json(200, usage(1)),
      [documentsPath(0)]: () =>
        ++calls === 1 ? json(500, { code: 'internal', message: 'internal error' }) : json(200, { results: [file(1)], page: 0, has_more: false }),
    });
    renderAt('/settings/storage/needldrive/application%2Fpdf');
    expect(await screen.findByRole('heading', { name: 'Your files could not be loaded' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'file-1.pdf' })).toBeInTheDocument();
  });

  it('says another app keeps no files in the storage', () => {
    stubApi({});
    renderAt('/settings/storage/googledrive/application%2Fpdf');
    expect(screen.getByRole('heading', { name: 'Googledrive keeps no files in your storage' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Needl Drive' })).toHaveAttribute('href', '/apps/needldrive');
  });
});
