import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard } from '../api/document-api';
import { DocumentList } from './document-list';

const upload = (overrides: Partial<DocumentCard> = {}): DocumentCard => ({
  deeplink: 'needldrive/u1:q3',
  source: 'needldrive',
  link: null,
  title: 'Third quarter results',
  author: null,
  published_at: null,
  summary: 'Revenue grew.',
  metadata: { mime_type: 'application/pdf', size: '1572864', original_file_name: 'q3-results-final.pdf', pages: '4' },
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
  owned: true,
  ...overrides,
});

const listRoute = 'GET /api/documents?page=0&limit=20&source_id=needldrive';
const deleteRoute = 'DELETE /api/doc/needldrive?deeplink=needldrive%2Fu1%3Aq3';
const fileRoute = 'GET /api/doc/needldrive/file?deeplink=needldrive%2Fu1%3Aq3';

const common = {
  'GET /api/doc/read_status': () => json(200, { results: [] }),
  'GET /api/source/rss': () => json(200, { results: [] }),
};

const renderDrive = () => renderWithProviders(<DocumentList source="needldrive" category="apps" />, { route: '/apps/needldrive' });

describe('uploaded files in the document list', () => {
  it('shows the file name cut to ten characters and the size, and previews in its category', async () => {
    stubApi({ ...common, [listRoute]: () => json(200, { results: [upload()], page: 0, has_more: false }) });
    renderDrive();
    const card = await screen.findByRole('article', { name: /Third quarter results/ });
    expect(within(card).getByText('Needl Drive')).toBeInTheDocument();
    const facts = within(card).getByTestId('file-facts');
    expect(within(facts).getByText('q3-results…')).toBeInTheDocument();
    expect(within(facts).getByText('q3-results-final.pdf')).toHaveClass('visually-hidden');
    expect(within(facts).getByText('1.5 MB')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Third quarter results' })).toHaveAttribute(
      'href',
      '/preview/apps/needldrive%2Fu1%3Aq3?source=needldrive',
    );
  });

  it('downloads the original file with its name', async () => {
    stubApi({
      ...common,
      [listRoute]: () => json(200, { results: [upload()], page: 0, has_more: false }),
      [fileRoute]: () => new Response('%PDF-1.4', { status: 200, headers: { 'content-disposition': 'inline; filename="q3.pdf"' } }),
    });
    const createObjectURL = vi.fn(() => 'blob:q3');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('q3-results-final.pdf');
      expect(this.href).toBe('blob:q3');
    });
    renderDrive();
    const card = await screen.findByRole('article', { name: /Third quarter results/ });
    await userEvent.click(within(card).getByRole('button', { name: 'Download q3-results-final.pdf' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(await screen.findByText('Downloaded Successfully')).toBeInTheDocument();
  });

  it('deletes after a confirmation, and the card leaves the list', async () => {
    let deleted = false;
    const calls = stubApi({
      ...common,
      [listRoute]: () => json(200, { results: deleted ? [] : [upload()], page: 0, has_more: false }),
      [deleteRoute]: () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    renderDrive();
    const card = await screen.findByRole('article', { name: /Third quarter results/ });
    await userEvent.click(within(card).getByRole('button', { name: 'Delete q3-results-final.pdf' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this file?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.map((c) => c.key)).not.toContain(deleteRoute);

    await userEvent.click(within(card).getByRole('button', { name: 'Delete q3-results-final.pdf' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /Third quarter results/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes the confirmation on Escape', async () => {
    stubApi({ ...common, [listRoute]: () => json(200, { results: [upload()], page: 0, has_more: false }) });
    renderDrive();
    const card = await screen.findByRole('article', { name: /Third quarter results/ });
    await userEvent.click(within(card).getByRole('button', { name: /^Delete/ }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('button', { name: /^Delete/ })).toHaveFocus());
  });

  it("shows the spec's removal message when the server refuses", async () => {
    stubApi({
      ...common,
      [listRoute]: () => json(200, { results: [upload()], page: 0, has_more: false }),
      [deleteRoute]: () => json(403, { code: 'forbidden', message: 'only documents you uploaded can be deleted' }),
    });
    renderDrive();
    const card = await screen.findByRole('article', { name: /Third quarter results/ });
    await userEvent.click(within(card).getByRole('button', { name: /^Delete/ }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('Error removing file: q3-results-final.pdf only documents you uploaded can be deleted'),
    ).toBeInTheDocument();
    expect(screen.getByRole('article', { name: /Third quarter results/ })).toBeInTheDocument();
  });

  it('offers no Delete for a file the user did not upload, and no file actions for other documents', async () => {
    stubApi({
      ...common,
      [listRoute]: () =>
        json(200, { results: [upload({ owned: false }), upload({ deeplink: 'rss:1', title: 'News item', metadata: {} })], page: 0, has_more: false }),
    });
    renderDrive();
    const shared = await screen.findByRole('article', { name: /Third quarter results/ });
    expect(within(shared).getByRole('button', { name: /^Download/ })).toBeInTheDocument();
    expect(within(shared).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    const news = screen.getByRole('article', { name: /News item/ });
    expect(within(news).queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
  });
});
