/** What the EDGAR endpoints answer in this feature's tests. */
import { json } from '../../../test/render';
import type { FollowedCompany } from '../api/edgar-api';

export const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
export const ahead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

export const FORMS = ['10-K', '10-Q', '8-K', '20-F', 'DEF 14A', 'S-1', '4'];

export const followed = (overrides: Partial<FollowedCompany> = {}): FollowedCompany => ({
  source_id: 'edgar_src_1',
  cik: '0000320193',
  ticker: 'AAPL',
  name: 'Apple Inc.',
  forms: [],
  filings: 12,
  last_fetched_at: ago(5),
  last_attempt_at: ago(5),
  next_attempt_at: ahead(55),
  last_error: null,
  ...overrides,
});

export const edgarAnswer = (companies: FollowedCompany[], extra: Record<string, unknown> = {}) =>
  json(200, { enabled: true, reason: null, forms: FORMS, companies, ...extra });

export const apple = { cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.' };
export const amat = { cik: '0000006951', ticker: 'AMAT', name: 'Applied Materials, Inc.' };
export const appHarvest = { cik: '0001807846', ticker: null, name: 'AppHarvest, Inc.' };
