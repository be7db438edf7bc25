import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { useLocation } from 'react-router';
import { completedReport } from '../test/fixtures';
import { ReportView } from './report-view';

const detail = (report: unknown) => () => json(200, { results: report });

/** Writes where the router is, to check where a click led. */
function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

describe('a report', () => {
  afterEach(() => vi.useRealTimers());

  it('shows its files as new-tab links, the time taken, the cited text and the feedback form once completed', async () => {
    stubApi({ 'GET /api/ml/report/r1': detail(completedReport()) });
    renderWithProviders(<ReportView reportId="r1" />, { route: "/report/r1" });
    expect(await screen.findByText('Time taken: 1.50 min')).toBeInTheDocument();
    const file = screen.getByRole('link', { name: 'annual.pdf' });
    expect(file).toHaveAttribute('target', '_blank');
    expect(file).toHaveAttribute('href', '/preview/apps/doc-1?source=needldrive');
    expect(screen.getByRole('heading', { name: 'Company overview' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Report' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Feedback' })).toBeInTheDocument();
  });

  it('opens a cited passage at its page and box (the preview marks it), keeping the way back', async () => {
    stubApi({ 'GET /api/ml/report/r1': detail(completedReport()) });
    renderWithProviders(
      <>
        <ReportView reportId="r1" />
        <Where />
      </>,
      { route: '/report/r1' },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Source 1: Annual report, page 2' }));
    const at = new URL(screen.getByTestId('where').textContent ?? '', 'http://x');
    expect(at.pathname).toBe('/preview/apps/doc-1');
    expect(Object.fromEntries(at.searchParams)).toEqual({ source: 'needldrive', page: '2', bbox: '10,20,110,60', redirect: '/report/r1' });
  });

  it('downloads the raw data as {title}_response.json with the title, content and raw data', async () => {
    const saved: Array<{ name: string; blob: Blob }> = [];
    const blobs = new Map<string, Blob>();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.set('blob:1', b), 'blob:1'), revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '')! });
    });
    stubApi({ 'GET /api/ml/report/r1': detail(completedReport()) });
    renderWithProviders(<ReportView reportId="r1" />, { route: '/report/r1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Download Raw Data' }));
    expect(saved.map((s) => s.name)).toEqual(['Acme initiation_response.json']);
    const body = JSON.parse(await saved[0].blob.text()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['title', 'content', 'raw_data']);
    expect(body.title).toBe('Acme initiation');
    click.mockRestore();
  });

  it('shows the error state with the reason, and hides feedback and copy, when the result is an error', async () => {
    const failed = completedReport({
      status: 'FAILED',
      result: { title: 'Acme', content: '', error: 'true', error_message: 'File annual.pdf is no longer available; remove it and generate again', raw_data: null, time_taken: 3 },
    });
    stubApi({ 'GET /api/ml/report/r1': detail(failed) });
    renderWithProviders(<ReportView reportId="r1" />, { route: "/report/r1" });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This one is on us and we are looking into it.');
    expect(alert).toHaveTextContent("Unable to generate the summary at this time. Our team will review this case to improve the system's capabilities. Please try again or proceed manually.");
    expect(alert).toHaveTextContent('File annual.pdf is no longer available');
    expect(screen.queryByRole('button', { name: 'Copy Report' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Feedback' })).not.toBeInTheDocument();
  });

  it('cycles the loading phrases every 2 s while generating, stays on the last, and shows the section being written', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const running = completedReport({
      status: 'RUNNING',
      result: null,
      sections: [
        { index: 0, heading: 'Company overview', status: 'COMPLETED' },
        { index: 1, heading: 'Business segments', status: 'PLANNED' },
      ],
    });
    stubApi({ 'GET /api/ml/report/r1': detail(running) });
    renderWithProviders(<ReportView reportId="r1" />, { route: "/report/r1" });
    const phrase = await screen.findByTestId('report-phrase');
    expect(phrase).toHaveTextContent('Analyzing Your Inputs, Crafting Insights');
    expect(screen.getByText("This may take up to a few seconds, but it's worth the wait.")).toBeInTheDocument();
    expect(screen.getByText('1 of 2 sections written; writing: Business segments')).toBeInTheDocument();
    for (const next of ['Building Context, Generating Relevant Keywords', 'Tailoring Recommendations, Adding Sources', 'Applying Final Touches']) {
      await act(async () => vi.advanceTimersByTime(2000));
      expect(screen.getByTestId('report-phrase')).toHaveTextContent(next);
    }
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('report-phrase')).toHaveTextContent('Applying Final Touches');
    expect(within(screen.getByRole('article')).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('offers to generate a draft', async () => {
    stubApi({ 'GET /api/ml/report/r1': detail(completedReport({ status: 'DRAFT', result: null })) });
    renderWithProviders(<ReportView reportId="r1" />, { route: '/report/r1' });
    expect(await screen.findByRole('button', { name: 'Generate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download Raw Data' })).not.toBeInTheDocument();
  });
});
