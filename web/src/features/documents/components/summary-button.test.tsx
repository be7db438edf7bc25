import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_FAILURE } from '../../../lib/query-client';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { DocumentCard as Doc } from '../api/document-api';
import { SUMMARY_POLL_MAX_MS, SUMMARY_POLL_MS, SUMMARY_REQUESTED, summaryPollDelay } from '../hooks/use-summary';
import { DocumentCard } from './document-card';

const doc: Doc = {
  deeplink: 'doc_1',
  source: 'rss_1',
  link: null,
  title: 'Quarterly results',
  author: null,
  published_at: '2026-11-20T10:00:00Z',
  summary: 'Revenue grew.',
  metadata: {},
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
};

const LIST = 'GET /api/documents/summaries';
const REQUEST = 'POST /api/documents/doc_1/summary';
const PDF = 'GET /api/documents/doc_1/summary/pdf';
const pending = { status: 'PENDING', summary_pdf: null, message: SUMMARY_REQUESTED };
const written = { status: 'SUCCESS', summary_pdf: '/api/documents/doc_1/summary/pdf', message: null };

/** The answer of the list of the user's summaries, with `entries` (a document with none has none). */
const summaries = (...entries: object[]) => json(200, { results: entries });

const card = (shown: Doc = doc) => (
  <DocumentCard doc={shown} read={false} onToggleRead={() => {}} flags={{ share: false, openInSource: false, summarize: true }} />
);

const renderCard = () => renderWithProviders(card(), { route: '/feeds/home' });

describe('Summarize on a document', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks for a summary, says so, holds the button while it is written and then opens it in a new tab', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let entries: object[] = [];
    const calls = stubApi({
      [LIST]: () => summaries(...entries),
      [REQUEST]: () => {
        entries = [{ deeplink: 'doc_1', ...pending }];
        return json(202, pending);
      },
      [PDF]: () => new Response('%PDF-1.4', { status: 200, headers: { 'content-type': 'application/pdf' } }),
    });
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Summarize Quarterly results' }));

    expect(await screen.findByText(SUMMARY_REQUESTED)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Summarizing Quarterly results' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await user.click(button);
    expect(calls.filter((c) => c.key === REQUEST)).toEqual([{ key: REQUEST, body: {} }]);

    // Still being written at the first look; written by the second, which comes later.
    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS));
    expect(calls.filter((c) => c.key === LIST)).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Summarizing Quarterly results' })).toBeInTheDocument();
    entries = [{ deeplink: 'doc_1', ...written }];
    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS));
    expect(calls.filter((c) => c.key === LIST)).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS));
    const view = await screen.findByRole('button', { name: 'View Summary of Quarterly results (opens in a new tab)' });
    expect(view).not.toHaveAttribute('aria-disabled');

    // Once written, no more looks.
    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MAX_MS * 2));
    expect(calls.filter((c) => c.key === LIST)).toHaveLength(3);

    const tab = { opener: {} as unknown, closed: false, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:summary'), revokeObjectURL: vi.fn() }));
    await user.click(view);
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('blob:summary'));
    expect(tab.opener).toBeNull();
    expect(calls.map((c) => c.key)).toContain(PDF);
  });

  it('shows why a summary failed and lets the user ask again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const calls = stubApi({
      [LIST]: () => summaries({ deeplink: 'doc_1', status: 'FAILED', summary_pdf: null, message: 'the document has no text to summarize' }),
      [REQUEST]: () => json(202, pending),
    });
    renderCard();
    const button = await screen.findByRole('button', { name: 'Summarize Quarterly results' });
    expect(button).toHaveAccessibleDescription('The summary could not be written: the document has no text to summarize');
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    expect(await screen.findByRole('button', { name: 'Summarizing Quarterly results' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByText(/could not be written/)).not.toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain(REQUEST);
  });

  it('shows the generic error when the summary cannot be asked for, and the button again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    stubApi({
      [LIST]: () => summaries(),
      [REQUEST]: () => json(403, { code: 'forbidden', message: 'document summaries are turned off for you' }),
    });
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Summarize Quarterly results' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(GENERIC_FAILURE);
    expect(screen.getByRole('button', { name: 'Summarize Quarterly results' })).not.toHaveAttribute('aria-disabled');
  });

  it('asks once for the summaries of every card on a page, and looks again once for all', async () => {
    const other: Doc = { ...doc, deeplink: 'doc_2', title: 'Annual report' };
    const calls = stubApi({ [LIST]: () => summaries({ deeplink: 'doc_2', ...pending }) });
    renderWithProviders(
      <>
        {card()}
        {card(other)}
      </>,
      { route: '/feeds/home' },
    );
    expect(await screen.findByRole('button', { name: 'Summarize Quarterly results' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Summarizing Annual report' })).toHaveAttribute('aria-disabled', 'true');
    expect(calls.map((c) => c.key)).toEqual([LIST]);

    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS));
    expect(calls.map((c) => c.key)).toEqual([LIST, LIST]);
  });

  it('looks again soon after a new request, however long another summary has been written', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const other = { deeplink: 'doc_2', ...pending };
    let entries: object[] = [other];
    const calls = stubApi({
      [LIST]: () => summaries(...entries),
      [REQUEST]: () => {
        entries = [{ deeplink: 'doc_1', ...pending }, other];
        return json(202, pending);
      },
    });
    renderCard();
    const button = await screen.findByRole('button', { name: 'Summarize Quarterly results' });
    // The other summary's looks have come to wait 24 s.
    for (const looks of [0, 1, 2]) await act(() => vi.advanceTimersByTimeAsync(summaryPollDelay(looks)));
    expect(calls.filter((c) => c.key === LIST)).toHaveLength(4);

    await user.click(button);
    expect(await screen.findByRole('button', { name: 'Summarizing Quarterly results' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS));
    expect(calls.filter((c) => c.key === LIST)).toHaveLength(5);
  });

  it('shows no summary action when the summaries cannot be read, and no error', async () => {
    const calls = stubApi({ [LIST]: () => json(500, { code: 'internal', message: 'internal error' }) });
    renderCard();
    await waitFor(() => expect(calls.map((c) => c.key)).toContain(LIST));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Summar/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('summaryPollDelay', () => {
  it('doubles the wait after each look, up to the longest', () => {
    expect([0, 1, 2, 3, 4, 10].map(summaryPollDelay)).toEqual([3_000, 6_000, 12_000, 24_000, 30_000, 30_000]);
  });
});
