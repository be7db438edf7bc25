import type { PublicSource } from './api/catalogue-api';
import { applyFilter, EMPTY_FILTER, filterParams, groupsOf, isFiltered, NO_GROUP, readFilter } from './catalogue-filter';

const source = (key: string, title: string, group: string | null, extra: Partial<PublicSource> = {}): PublicSource => ({
  key,
  title,
  group,
  kind: 'source',
  fetchable: false,
  following: false,
  ...extra,
});

const catalogue = [
  source('bse_annual_reports', 'BSE Annual Reports', 'Indian Capital Markets', { fetchable: true }),
  source('bse_filings', 'BSE Filings', 'Indian Capital Markets', { following: true }),
  source('earnings_conf_calls', 'Earnings Conference Calls', 'US Capital Markets'),
  source('nzx_filings', 'NZX Filings', null, { fetchable: true, following: true }),
];
const keys = (filter: Partial<typeof EMPTY_FILTER>) => applyFilter(catalogue, { ...EMPTY_FILTER, ...filter }).map((s) => s.key);

describe('the catalogue filter', () => {
  it('matches every word typed against the title, key and group, in any case', () => {
    expect(keys({ q: 'filings' })).toEqual(['bse_filings', 'nzx_filings']);
    expect(keys({ q: '  bse   REPORTS ' })).toEqual(['bse_annual_reports']);
    expect(keys({ q: 'conf_calls' })).toEqual(['earnings_conf_calls']);
    expect(keys({ q: 'conf calls' })).toEqual(['earnings_conf_calls']);
    expect(keys({ q: 'us capital' })).toEqual(['earnings_conf_calls']);
    expect(keys({ q: 'nothing like it' })).toEqual([]);
  });

  it('narrows by group, entries in no group included', () => {
    expect(keys({ group: 'Indian Capital Markets' })).toEqual(['bse_annual_reports', 'bse_filings']);
    expect(keys({ group: NO_GROUP })).toEqual(['nzx_filings']);
  });

  it('narrows to what is followed or not, and to what this instance fetches', () => {
    expect(keys({ show: 'following' })).toEqual(['bse_filings', 'nzx_filings']);
    expect(keys({ show: 'not-following' })).toEqual(['bse_annual_reports', 'earnings_conf_calls']);
    expect(keys({ fetchedOnly: true })).toEqual(['bse_annual_reports', 'nzx_filings']);
    expect(keys({ q: 'filings', show: 'following', fetchedOnly: true })).toEqual(['nzx_filings']);
  });

  it('lives in the address, leaving out what does not narrow and ignoring values it does not know', () => {
    const filter = { q: 'bse', group: 'US Capital Markets', show: 'following' as const, fetchedOnly: true };
    expect(filterParams(filter).toString()).toBe('q=bse&group=US+Capital+Markets&show=following&fetched=1');
    expect(readFilter(filterParams(filter))).toEqual(filter);
    expect(filterParams(EMPTY_FILTER).toString()).toBe('');
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, q: '   ' })).toBe(false);
    expect(readFilter(new URLSearchParams('show=everything&fetched=yes'))).toEqual(EMPTY_FILTER);
  });

  it('offers the groups the catalogue has, by name', () => {
    expect(groupsOf(catalogue)).toEqual(['Indian Capital Markets', 'US Capital Markets']);
  });
});
