import { companyLabel, filingsLine, formsLine, shortCik } from './edgar-display';

describe('EDGAR display', () => {
  it('writes a CIK without its leading zeros, and keeps a zero CIK readable', () => {
    expect(shortCik('0000320193')).toBe('320193');
    expect(shortCik('320193')).toBe('320193');
    expect(shortCik('0000000000')).toBe('0');
  });

  it('labels a company by name, ticker and CIK, leaving out a missing ticker', () => {
    expect(companyLabel({ name: 'Apple Inc.', ticker: 'AAPL', cik: '0000320193' })).toBe('Apple Inc. · AAPL · CIK 320193');
    expect(companyLabel({ name: 'Private Co', ticker: null, cik: '0001234567' })).toBe('Private Co · CIK 1234567');
  });

  it('says "All forms" when no form is named, and counts filings in words', () => {
    expect(formsLine([])).toBe('All forms');
    expect(formsLine(['10-K', '8-K'])).toBe('10-K, 8-K');
    expect(filingsLine(0)).toBe('No filings brought in yet');
    expect(filingsLine(1)).toBe('1 filing brought in');
    expect(filingsLine(42)).toBe('42 filings brought in');
  });
});
