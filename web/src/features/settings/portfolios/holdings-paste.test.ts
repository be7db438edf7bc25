import { parseHoldingLines, splitLine } from './holdings-paste';

describe('pasted holdings', () => {
  it('reads company, ISIN and quantity a line, skipping a header and blank lines', () => {
    const text = 'company,isin,quantity\nApple Inc.,US0378331005,120.5\n\n  Bayer AG , DE000BAY0017 , 10 \r\n';
    expect(parseHoldingLines(text)).toEqual({
      holdings: [
        { company: 'Apple Inc.', isin: 'US0378331005', quantity: '120.5' },
        { company: 'Bayer AG', isin: 'DE000BAY0017', quantity: '10' },
      ],
      problems: [],
      unread: [],
    });
  });

  it('honours quotes, and takes extra commas as part of the company', () => {
    expect(parseHoldingLines('"Apple, Inc.",US0378331005,"1,200"').holdings).toEqual([
      { company: 'Apple, Inc.', isin: 'US0378331005', quantity: '1,200' },
    ]);
    expect(parseHoldingLines('Apple, Inc.,US0378331005,3').holdings[0].company).toBe('Apple, Inc.');
    expect(splitLine('"say ""hi""",b', ',')).toEqual(['say "hi"', 'b']);
  });

  it('reads cells copied from a spreadsheet (tabs)', () => {
    expect(parseHoldingLines('Apple, Inc.\tUS0378331005\t5').holdings).toEqual([
      { company: 'Apple, Inc.', isin: 'US0378331005', quantity: '5' },
    ]);
  });

  it('names the lines it cannot read and hands them back', () => {
    const result = parseHoldingLines('Apple Inc.,US0378331005,1\nBayer AG DE000BAY0017 10');
    expect(result.holdings).toHaveLength(1);
    expect(result.problems).toEqual(['Line 2 needs a company, an ISIN and a quantity, separated by commas.']);
    expect(result.unread).toEqual(['Bayer AG DE000BAY0017 10']);
  });
});
