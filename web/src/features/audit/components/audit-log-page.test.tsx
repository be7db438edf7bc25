import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLiveEvent } from '../../../lib/live-events';
import { json, stubApi } from '../../../test/render';
import { ADMIN, AUDITOR, chainStatus, MEMBER, newestFirst, page, renderAuditPage, signInAs, storedEvent, storedEvents } from '../test/fixtures';
import { AuditLogPage } from './audit-log-page';

const saved = vi.hoisted(() => [] as Array<{ blob: Blob; name: string }>);
vi.mock('../../../lib/save-blob', () => ({ saveBlob: (blob: Blob, name: string) => saved.push({ blob, name }) }));

const CHAIN = { 'GET /api/audit/chain': () => json(200, chainStatus()) };
/** The timeline's first page: the newest events. */
const NEWEST = 'GET /api/audit/events?order=newest&limit=50';
const address = () => screen.getByTestId('address').textContent;
const rows = () => within(screen.getByRole('table', { name: /Audit events/ })).getAllByRole('row').filter((r) => r.classList.contains('audit-row'));

describe('the audit log page', () => {
  beforeEach(() => {
    saved.length = 0;
    signInAs(ADMIN);
  });

  it('tells someone who is neither administrator nor auditor that they may not read it, and asks nothing', async () => {
    signInAs(MEMBER);
    const calls = stubApi({});
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText(/Only administrators and auditors/)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('is open to an auditor who is not an administrator', async () => {
    signInAs(AUDITOR);
    stubApi({ ...CHAIN, [NEWEST]: () => json(200, page([storedEvent(1)])) });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    expect(await screen.findByText('Tag created')).toBeInTheDocument();
  });

  it('lists events in words, and a row’s expander shows its metadata and payload with secrets muted', async () => {
    const user = userEvent.setup();
    const system = storedEvent(2, {
      aggregate_type: 'user',
      aggregate_id: 'u-9',
      event_type: 'PasswordChanged',
      payload: { PasswordChanged: { password_hash: '[redacted]' } },
      metadata: { user_id: 'system', request_id: 'req-sys', app_type: 'cli', request_origin: 'needl admin', time: '2025-01-02T10:00:00Z' },
      actor_name: null,
    });
    stubApi({ ...CHAIN, [NEWEST]: () => json(200, page([system, storedEvent(1)])) });
    renderAuditPage(<AuditLogPage />, '/settings/audit');

    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('table', { name: 'Audit events, newest first' })).toBeInTheDocument();
    expect(rows()[0]).toHaveTextContent(/System.*Password changed.*User/);
    expect(rows()[1]).toHaveTextContent(/ada.*Tag created.*Tag book · Tag 1/);
    expect(within(rows()[1]).getByText(/ago|-2025/).closest('time')).toHaveAttribute('dateTime', '2025-01-02T10:00:00Z');
    expect(screen.queryByText('u-9')).not.toBeInTheDocument();

    const expander = within(rows()[0]).getByRole('button', { name: /^Details: Password changed by System/ });
    expect(expander).toHaveAttribute('aria-expanded', 'false');
    await user.click(expander);
    expect(expander).toHaveAttribute('aria-expanded', 'true');
    const detail = document.getElementById(expander.getAttribute('aria-controls')!)!;
    expect(detail).toBeVisible();
    expect(within(detail).getByText('req-sys')).toBeInTheDocument();
    expect(within(detail).getByText('cli')).toBeInTheDocument();
    expect(within(detail).getByText('needl admin')).toBeInTheDocument();
    expect(within(detail).getByText('u-9')).toBeInTheDocument();
    expect(within(detail).getByLabelText('Payload')).toHaveTextContent('"password_hash": "[redacted]"');
    expect(within(detail).getByText('"[redacted]"')).toHaveClass('audit-redacted');
    expect(within(detail).getByRole('link', { name: 'History of this user' })).toHaveAttribute(
      'href',
      '/settings/audit/history?type=user&id=u-9&at=0-2',
    );
    await user.click(expander);
    expect(expander).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens on the newest events and loads older ones before the last shown, until the server says none is older', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page(newestFirst(53, 4), '0-4')),
      'GET /api/audit/events?order=newest&before=0-4&limit=50': () => json(200, page(newestFirst(3, 1))),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    await user.click(await screen.findByRole('button', { name: 'Load older' }));
    await waitFor(() => expect(rows()).toHaveLength(53));
    expect(rows()[0]).toHaveTextContent('Tag 53');
    expect(rows()[49]).toHaveTextContent('Tag 4');
    expect(rows()[52]).toHaveTextContent('Tag 1');
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
    expect(screen.getByText(/53 events; none older/)).toBeInTheDocument();
    expect(calls.map((c) => c.key).filter((k) => k.startsWith('GET /api/audit/events'))).toHaveLength(2);
  });

  it('offers no older page when the first one holds everything, however full it is', async () => {
    stubApi({ ...CHAIN, [NEWEST]: () => json(200, page(newestFirst(50, 1))) });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    expect(await screen.findByText(/50 events; none older/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
  });

  it('puts applied filters in the address and asks the API with them; Clear filters takes them away', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page([storedEvent(1)])),
      'GET /api/audit/events?aggregate_type=tag_book&event_type=TagCreated&order=newest&limit=50': () => json(200, page([])),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    await screen.findByText('Tag created');
    await user.type(screen.getByLabelText('Event type'), 'TagCreated');
    await user.type(screen.getByLabelText('Aggregate type'), 'tag_book');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    expect(address()).toBe('/settings/audit?aggregate_type=tag_book&event_type=TagCreated');
    expect(await screen.findByRole('heading', { name: 'No events match these filters' })).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('GET /api/audit/events?aggregate_type=tag_book&event_type=TagCreated&order=newest&limit=50');
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toHaveAttribute('aria-expanded', 'false');

    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]);
    expect(address()).toBe('/settings/audit');
    expect(screen.getByLabelText('Event type')).toHaveValue('');
    expect(await screen.findByText('Tag created')).toBeInTheDocument();
  });

  it('reads the filters from a shared address, time range included', async () => {
    const from = '2025-01-01T00:00:00.000Z';
    stubApi({ ...CHAIN, [`GET /api/audit/events?from=${encodeURIComponent(from)}&request_id=req-1&order=newest&limit=50`]: () => json(200, page([storedEvent(1)])) });
    renderAuditPage(<AuditLogPage />, `/settings/audit?request_id=req-1&from=${from}`);
    expect(await screen.findByText('Tag created')).toBeInTheDocument();
    expect(screen.getByLabelText('Request id')).toHaveValue('req-1');
    expect(screen.getByLabelText('From')).not.toHaveValue('');
  });

  it('narrows to one request from an event’s detail', async () => {
    const user = userEvent.setup();
    stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page([storedEvent(1)])),
      'GET /api/audit/events?request_id=req-1&order=newest&limit=50': () => json(200, page([storedEvent(1)])),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    await user.click(await screen.findByRole('button', { name: /^Details:/ }));
    await user.click(screen.getByRole('button', { name: 'Only this request' }));
    expect(address()).toBe('/settings/audit?request_id=req-1');
  });

  it('exports the filtered selection with the token and saves it under the server’s name', async () => {
    const user = userEvent.setup();
    let headers: HeadersInit | undefined;
    stubApi({
      ...CHAIN,
      'GET /api/audit/events?event_type=TagCreated&order=newest&limit=50': () => json(200, page([storedEvent(1)])),
      'GET /api/audit/export?event_type=TagCreated': (init) => {
        headers = init.headers;
        return new Response('{"cursor":"0-1"}\n', {
          headers: { 'content-type': 'application/x-ndjson', 'content-disposition': 'attachment; filename="audit.ndjson"' },
        });
      },
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit?event_type=TagCreated');
    await user.click(await screen.findByRole('button', { name: 'Export these events' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('audit.ndjson');
    expect(await saved[0].blob.text()).toBe('{"cursor":"0-1"}\n');
    expect(headers).toMatchObject({ token: 'tok' });
  });

  it('says when the export fails, in the server’s words', async () => {
    const user = userEvent.setup();
    stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page([storedEvent(1)])),
      'GET /api/audit/export': () => json(403, { code: 'forbidden', message: 'only administrators and auditors may read the audit log' }),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    await user.click(await screen.findByRole('button', { name: 'Export all events' }));
    expect(await screen.findByText(/The export could not be made\. only administrators/)).toBeInTheDocument();
  });

  it('counts the events the live socket announces after the newest one shown, and puts them on top on demand', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page(newestFirst(52, 3), '0-3')),
      'GET /api/audit/events?after=0-52&limit=50': () => json(200, page(storedEvents(53, 54), '0-54')),
    });
    const { client } = renderAuditPage(<AuditLogPage />, '/settings/audit');
    await waitFor(() => expect(rows()).toHaveLength(50));

    // Older pages are still to load: the banner does not wait for them.
    expect(screen.getByRole('button', { name: 'Load older' })).toBeInTheDocument();
    await act(() => applyLiveEvent(client(), { type: 'audit', head: '0-54', cursor: '', ids: [] }));
    expect(await screen.findByText(/2 new events/)).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Show newest' }));
    await waitFor(() => expect(rows()).toHaveLength(52));
    expect(rows()[0]).toHaveTextContent('Tag 54');
    expect(rows()[1]).toHaveTextContent('Tag 53');
    expect(rows()[2]).toHaveTextContent('Tag 52');
    expect(screen.queryByText(/new events/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'GET /api/audit/events?after=0-52&limit=50')).toHaveLength(1);
    expect(calls.filter((c) => c.key === NEWEST), 'the shown pages are not asked again').toHaveLength(1);
  });

  it('starts again from the newest when more than a page of events is newer', async () => {
    const user = userEvent.setup();
    let firstPages = 0;
    const calls = stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, ++firstPages === 1 ? page(newestFirst(2, 1)) : page(newestFirst(80, 31), '0-31')),
      'GET /api/audit/events?after=0-2&limit=50': () => json(200, page(storedEvents(3, 52), '0-52')),
    });
    const { client } = renderAuditPage(<AuditLogPage />, '/settings/audit');
    await waitFor(() => expect(rows()).toHaveLength(2));

    await act(() => applyLiveEvent(client(), { type: 'audit', head: '0-80', cursor: '', ids: [] }));
    expect(await screen.findByText('50 or more new events', { exact: false })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show newest' }));
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Tag 80'));
    expect(rows()).toHaveLength(50);
    expect(screen.getByRole('button', { name: 'Load older' })).toBeInTheDocument();
    expect(screen.queryByText(/new events/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.key === NEWEST)).toHaveLength(2);
  });

  it('asks again for an empty timeline when the socket announces events', async () => {
    let calls = 0;
    stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page(++calls === 1 ? [] : [storedEvent(1)])),
    });
    const { client } = renderAuditPage(<AuditLogPage />, '/settings/audit');
    expect(await screen.findByRole('heading', { name: 'No events yet' })).toBeInTheDocument();
    await act(() => applyLiveEvent(client(), { type: 'audit', head: '0-1', cursor: '', ids: [] }));
    expect(await screen.findByText('Tag created')).toBeInTheDocument();
  });

  it('says what went wrong when the log cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    stubApi({
      ...CHAIN,
      [NEWEST]: () =>
        ++calls === 1 ? json(400, { code: 'bad_time', message: 'from must be before to' }) : json(200, page([storedEvent(1)])),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The audit log could not be loaded');
    expect(alert).toHaveTextContent('From must be before to.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Tag created')).toBeInTheDocument();
  });

  it('folds the filters behind a Filters button that says whether they are open (a phone shows only the button)', async () => {
    const user = userEvent.setup();
    stubApi({ ...CHAIN, [NEWEST]: () => json(200, page([storedEvent(1)])) });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    const toggle = await screen.findByRole('button', { name: 'Filters' });
    const form = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(form).not.toHaveAttribute('data-open');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(form).toHaveAttribute('data-open');
  });

  it('says why older events could not be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    stubApi({
      ...CHAIN,
      [NEWEST]: () => json(200, page(newestFirst(51, 2), '0-2')),
      'GET /api/audit/events?order=newest&before=0-2&limit=50': () =>
        ++calls === 1 ? json(400, { code: 'bad_cursor', message: 'a cursor looks like 0-42' }) : json(200, page([storedEvent(1)])),
    });
    renderAuditPage(<AuditLogPage />, '/settings/audit');
    await user.click(await screen.findByRole('button', { name: 'Load older' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('More events could not be loaded. a cursor looks like 0-42');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(51));
  });
});
