import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeXhr } from '../../../test/fake-xhr';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { typeConfig } from '../test/fixtures';
import { NewReportDialog } from './new-report-dialog';

const pdf = (name: string, bytes = 10) => new File(['x'.repeat(bytes)], name, { type: 'application/pdf' });
const item = { id: 'r9', title: 'Q3', name: 'Q3', status: 'QUEUED', report_type: 'drhp_report', created_at: 'x', updated_at: 'x' };

function setup() {
  const Xhr = installFakeXhr();
  const calls = stubApi({
    'GET /api/ml/report/config': () => json(200, { results: [typeConfig({ file_count_limit: 2 })] }),
    'GET /api/boards/v2': () => json(200, { results: [] }),
    'POST /api/upload/init': (init) => {
      const { files } = JSON.parse(String(init.body)) as { files: Array<{ id: string }> };
      return json(200, { upload_configs: files.map((f) => ({ id: f.id, upload_link: `/api/upload/put/${f.id}`, headers: {}, metadata_fields: { bucket: 'b', key: f.id } })) });
    },
    'POST /api/upload/complete': () => json(200, { files: [], feed_id: 'r9' }),
    'POST /api/ml/report/generate': () => json(200, { results: item }),
  });
  renderWithProviders(<NewReportDialog onClose={() => {}} />, { route: '/managers/report_generation/dashboard' });
  return { Xhr, calls };
}

describe('a new report', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uploads picked files as report files with a progress ring each, ignores duplicates, keeps to the limit, then generates', async () => {
    const { Xhr, calls } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'New report' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveValue('drhp_report'));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Q3');
    const picker = within(dialog).getByLabelText('Choose report files');
    await userEvent.upload(picker, [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')]);

    expect(await screen.findByText('Only 2 files can be uploaded for a report.')).toBeInTheDocument();
    await waitFor(() => expect(Xhr.sent).toHaveLength(2));
    expect(calls.find((c) => c.key === 'POST /api/upload/init')?.body).toMatchObject({ source: 'report', report_type: 'drhp_report' });
    expect(within(dialog).getByRole('progressbar', { name: 'Uploading a.pdf' })).toBeInTheDocument();
    Xhr.sent[0].progress(5, 10);
    expect(await within(dialog).findByRole('progressbar', { name: 'Uploading a.pdf' })).toHaveAttribute('aria-valuenow', '50');
    Xhr.sent.forEach((x) => x.respond(200));
    await waitFor(() => expect(within(dialog).getAllByRole('img', { name: 'Uploaded' })).toHaveLength(2));
    expect(calls.find((c) => c.key === 'POST /api/upload/complete')?.body).toMatchObject({ source: 'report', report_type: 'drhp_report', report_name: 'Q3' });
    expect(within(dialog).getByTestId('source-count')).toHaveTextContent('2 source(s) processing/added');

    // The same file again (same name and size) is ignored without a word; a third is over the limit.
    await userEvent.upload(picker, [pdf('a.pdf')]);
    expect(Xhr.sent).toHaveLength(2);
    expect(within(dialog).getAllByTestId('report-upload')).toHaveLength(2);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/ml/report/generate')?.body).toEqual({ report_id: 'r9' }));
  });
});
