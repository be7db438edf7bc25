/** How EDGAR's companies and forms are written on screen. */

/**
 * Plain-language hints for the forms analysts follow most. Others are shown by their code
 * alone: EDGAR has hundreds.
 */
export const FORM_HINTS: Readonly<Record<string, string>> = {
  '10-K': 'annual report',
  '10-Q': 'quarterly report',
  '8-K': 'current report',
  '20-F': 'foreign annual report',
  'DEF 14A': 'proxy statement',
  'S-1': 'registration',
};

/** Returns a CIK as people write it, without EDGAR's leading zeros ("0000320193" → "320193"). */
export const shortCik = (cik: string) => cik.replace(/^0+(?=\d)/, '');

/** Returns "Apple Inc. · AAPL · CIK 320193", or without the ticker when it has none. */
export function companyLabel(company: { name: string; ticker?: string | null; cik: string }): string {
  return [company.name, company.ticker, `CIK ${shortCik(company.cik)}`].filter(Boolean).join(' · ');
}

/** Returns the forms followed as a line: "All forms" when none is named. */
export const formsLine = (forms: readonly string[]) => (forms.length === 0 ? 'All forms' : forms.join(', '));

/** Returns how many filings have been brought in, as a phrase. */
export function filingsLine(filings: number): string {
  if (filings === 0) return 'No filings brought in yet';
  return `${filings} ${filings === 1 ? 'filing' : 'filings'} brought in`;
}
