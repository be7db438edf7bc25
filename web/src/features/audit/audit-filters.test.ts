import { eventsPath, exportPath, pointQuery } from './api/audit-api';
import { filtersFromSearch, filtersQuery, fromLocalInput, isFiltered, toLocalInput, withFilters } from './audit-filters';
import { historyHref } from './audit-paths';

describe('audit filters', () => {
  it('reads the filters out of the address, leaving out empty and unknown parameters', () => {
    const search = new URLSearchParams('event_type=TagCreated&user=&page=3&request_id=%20r1%20');
    expect(filtersFromSearch(search)).toEqual({ event_type: 'TagCreated', request_id: 'r1' });
  });

  it('writes the same filters as the same query string, in a fixed order', () => {
    expect(filtersQuery({ to: '2025-02-01T00:00:00.000Z', user: 'u1', event_type: 'TagCreated' })).toBe(
      'user=u1&event_type=TagCreated&to=2025-02-01T00%3A00%3A00.000Z',
    );
    expect(filtersQuery({ user: ' ' })).toBe('');
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ aggregate_id: 'a' })).toBe(true);
  });

  it('replaces the filters in an address and keeps its other parameters', () => {
    const next = withFilters(new URLSearchParams('user=u1&tab=x'), { event_type: 'NoteEdited' });
    expect(next.toString()).toBe('tab=x&event_type=NoteEdited');
  });

  it('turns a date-time field’s local value into an instant and back', () => {
    const instant = fromLocalInput('2025-03-04T05:06');
    expect(instant).toBe(new Date(2025, 2, 4, 5, 6).toISOString());
    expect(toLocalInput(instant)).toBe('2025-03-04T05:06');
    expect(fromLocalInput('')).toBeUndefined();
    expect(toLocalInput('not a date')).toBe('');
  });

  it('asks the API with the filters, the cursor and the page size, and exports with the filters alone', () => {
    expect(eventsPath({}, { before: null })).toBe('/audit/events?order=newest&limit=50');
    expect(eventsPath({ event_type: 'TagCreated' }, { before: '0-51' })).toBe(
      '/audit/events?event_type=TagCreated&order=newest&before=0-51&limit=50',
    );
    expect(eventsPath({ aggregate_type: 'tag_book', event_type: 'TagCreated' }, { after: '0-50' })).toBe(
      '/audit/events?aggregate_type=tag_book&event_type=TagCreated&after=0-50&limit=50',
    );
    expect(exportPath({})).toBe('/audit/export');
    expect(exportPath({ request_id: 'r 1' })).toBe('/audit/export?request_id=r+1');
  });

  it('names a point in an aggregate’s history by cursor or by moment', () => {
    expect(pointQuery({ at: '0-7' })).toBe('at=0-7');
    expect(pointQuery({ time: '2025-01-01T00:00:00Z' })).toBe('time=2025-01-01T00%3A00%3A00Z');
    expect(historyHref('notebook_shelf', 'u/1', { at: '0-7' })).toBe('/settings/audit/history?type=notebook_shelf&id=u%2F1&at=0-7');
  });
});
