import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, stubApi } from '../../../test/render';
import { ADMIN, MEMBER, renderAuditPage, signInAs, storedEvent } from '../test/fixtures';
import { AggregateHistoryPage } from './aggregate-history-page';

const created = storedEvent(3, {
  aggregate_type: 'notebook_shelf',
  aggregate_id: 'admin-1',
  sequence: 1,
  event_type: 'NotebookCreated',
  payload: { NotebookCreated: { notebook_id: 'n1', name: 'Trips' } },
  recorded_at: '2025-01-02T10:00:00Z',
});
const renamed = storedEvent(8, {
  aggregate_type: 'notebook_shelf',
  aggregate_id: 'admin-1',
  sequence: 2,
  event_type: 'NotebookRenamed',
  payload: { NotebookRenamed: { notebook_id: 'n1', from: 'Trips', name: 'Journeys' } },
  recorded_at: '2025-01-05T10:00:00Z',
});
const BASE = '/api/audit/aggregates/notebook_shelf/admin-1';
const stateAfter = (event: typeof created, name: string, events = [created]) => ({
  aggregate_type: 'notebook_shelf',
  aggregate_id: 'admin-1',
  as_of: { cursor: event.cursor, time: event.recorded_at },
  sequence: event.sequence,
  state: { notebooks: { n1: { name } } },
  events,
});
const address = () => screen.getByTestId('address').textContent;

describe('an aggregate’s history', () => {
  beforeEach(() => signInAs(ADMIN));

  it('is not open to a member', () => {
    signInAs(MEMBER);
    const calls = stubApi({});
    renderAuditPage(<AggregateHistoryPage />, '/settings/audit/history?type=notebook_shelf&id=admin-1');
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lists the events and shows the state now, after the latest one', async () => {
    stubApi({
      [`GET ${BASE}`]: () => json(200, { events: [created, renamed], next: renamed.cursor }),
      [`GET ${BASE}/state?at=0-8`]: () => json(200, stateAfter(renamed, 'Journeys', [created, renamed])),
    });
    renderAuditPage(<AggregateHistoryPage />, '/settings/audit/history?type=notebook_shelf&id=admin-1');
    expect(await screen.findByRole('heading', { name: 'History of the notebook shelf' })).toBeInTheDocument();
    expect(await screen.findByText(/2 events, the first by ada/)).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Events of the notebook shelf' });
    const picks = within(list).getAllByRole('button');
    expect(picks.map((b) => b.textContent)).toEqual([expect.stringMatching(/^1\. Notebook created · Trips/), expect.stringMatching(/^2\. Notebook renamed · Journeys/)]);
    expect(picks[1]).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByLabelText('State of the notebook shelf')).toHaveTextContent('"name": "Journeys"');
    expect(screen.getByRole('heading', { name: 'The 2 events that led to it' })).toBeInTheDocument();
  });

  it('travels back to an earlier event: asks for the state at its cursor and puts it in the address', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      [`GET ${BASE}`]: () => json(200, { events: [created, renamed], next: renamed.cursor }),
      [`GET ${BASE}/state?at=0-8`]: () => json(200, stateAfter(renamed, 'Journeys', [created, renamed])),
      [`GET ${BASE}/state?at=0-3`]: () => json(200, stateAfter(created, 'Trips')),
    });
    renderAuditPage(<AggregateHistoryPage />, '/settings/audit/history?type=notebook_shelf&id=admin-1');
    await user.click(await screen.findByRole('button', { name: /Notebook created/ }));
    expect(address()).toBe('/settings/audit/history?type=notebook_shelf&id=admin-1&at=0-3');
    await waitFor(() => expect(screen.getByLabelText('State of the notebook shelf')).toHaveTextContent('"name": "Trips"'));
    expect(screen.getByRole('button', { name: /Notebook created/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { name: 'The event that led to it' })).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain(`GET ${BASE}/state?at=0-3`);
  });

  it('travels to a moment: asks for the state at that time', async () => {
    const user = userEvent.setup();
    const moment = new Date(2025, 0, 3, 12, 0).toISOString();
    stubApi({
      [`GET ${BASE}`]: () => json(200, { events: [created, renamed], next: renamed.cursor }),
      [`GET ${BASE}/state?at=0-8`]: () => json(200, stateAfter(renamed, 'Journeys', [created, renamed])),
      [`GET ${BASE}/state?time=${encodeURIComponent(moment)}`]: () => json(200, stateAfter(created, 'Trips')),
    });
    renderAuditPage(<AggregateHistoryPage />, '/settings/audit/history?type=notebook_shelf&id=admin-1');
    const field = await screen.findByLabelText('Or as of a moment');
    await user.type(field, '2025-01-03T12:00');
    await user.click(screen.getByRole('button', { name: 'Show the state then' }));
    expect(address()).toBe(`/settings/audit/history?type=notebook_shelf&id=admin-1&time=${encodeURIComponent(moment)}`);
    await waitFor(() => expect(screen.getByLabelText('State of the notebook shelf')).toHaveTextContent('"name": "Trips"'));
  });

  it('says the aggregate did not exist yet at a moment before its first event', async () => {
    const moment = '2024-12-01T00:00:00.000Z';
    stubApi({
      [`GET ${BASE}`]: () => json(200, { events: [created, renamed], next: renamed.cursor }),
      [`GET ${BASE}/state?time=${encodeURIComponent(moment)}`]: () => json(404, { code: 'not_yet', message: 'it did not exist yet' }),
    });
    renderAuditPage(<AggregateHistoryPage />, `/settings/audit/history?type=notebook_shelf&id=admin-1&time=${moment}`);
    expect(await screen.findByRole('heading', { name: 'The notebook shelf did not exist yet' })).toBeInTheDocument();
  });

  it('asks for an aggregate when the address names none', () => {
    stubApi({});
    renderAuditPage(<AggregateHistoryPage />, '/settings/audit/history');
    expect(screen.getByRole('heading', { name: 'No history picked' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'audit log' })).toHaveAttribute('href', '/settings/audit');
  });
});
