import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard as Doc } from '../api/document-api';
import { DocumentCard } from './document-card';
import { NO_TABLES } from './tables-dialog';

const pdf: Doc = {
  deeplink: 'needldrive/u1:q3',
  source: 'needldrive',
  link: null,
  title: 'Third quarter results',
  author: null,
  published_at: null,
  summary: null,
  metadata: { mime_type: 'application/pdf', size: '2048', original_file_name: 'q3.pdf' },
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
  owned: true,
};

const LIST = 'GET /api/doc/needldrive/tables?deeplink=needldrive%2Fu1%3Aq3';
const CSV = 'GET /api/doc/needldrive/tables/download?deeplink=needldrive%2Fu1%3Aq3&format=csv';

const tables = {
  tables: [
    {
      number: 1,
      page: 2,
      rows: [
        ['Segment', 'Revenue', 'Margin'],
        ['Retail', '120', '8%'],
        ['Wholesale', '80', '5%'],
        ['Online', '60', '12%'],
        ['Other', '10', '1%'],
        ['Total', '270', '7%'],
      ],
    },
    { number: 2, page: 4, rows: [['Year', 'Staff'], ['2026', '410']] },
  ],
};

const renderCard = (doc: Doc = pdf) =>
  renderWithProviders(<DocumentCard doc={doc} read={false} onToggleRead={() => {}} flags={{ share: false, openInSource: false, tables: true }} />, {
    route: '/apps/needldrive',
  });

describe('Extract tables', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists a PDF's tables with their first rows, and downloads them as CSV under the server's name", async () => {
    const user = userEvent.setup();
    stubApi({
      [LIST]: () => json(200, tables),
      [CSV]: () =>
        new Response('Segment,Revenue\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="Third quarter results tables.csv"' } }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    renderCard();
    const opener = screen.getByRole('button', { name: 'Extract tables from Third quarter results' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Tables in this document' });
    const first = await within(dialog).findByRole('table', { name: 'Table 1 · page 2' });
    expect(within(first).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Segment', 'Revenue', 'Margin']);
    expect(within(first).getAllByRole('row')).toHaveLength(4);
    expect(within(dialog).getByText('and 2 more rows')).toBeInTheDocument();
    expect(within(dialog).getByRole('table', { name: 'Table 2 · page 4' })).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Table 1 · page 2' })).toHaveAttribute('tabindex', '0');

    await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Third quarter results tables.csv');
    expect(await screen.findByText('Downloaded Successfully')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('says when the document has no tables, and offers no download', async () => {
    const user = userEvent.setup();
    stubApi({ [LIST]: () => json(200, { tables: [] }) });
    renderCard();
    await user.click(screen.getByRole('button', { name: /^Extract tables/ }));
    const dialog = screen.getByRole('dialog', { name: 'Tables in this document' });
    expect(await within(dialog).findByText(NO_TABLES)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download CSV' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Download Excel (.xlsx)' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog, without a toast", async () => {
    const user = userEvent.setup();
    stubApi({ [LIST]: () => json(422, { code: 'not_a_pdf', message: 'Tables can be taken from PDF documents only.' }) });
    renderCard();
    await user.click(screen.getByRole('button', { name: /^Extract tables/ }));
    const dialog = screen.getByRole('dialog', { name: 'Tables in this document' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Tables can be taken from PDF documents only.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('is offered for PDFs only', () => {
    stubApi({});
    renderCard({ ...pdf, metadata: { mime_type: 'text/plain', size: '20', original_file_name: 'notes.txt' } });
    expect(screen.getByRole('article')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Extract tables/ })).not.toBeInTheDocument();
  });
});
