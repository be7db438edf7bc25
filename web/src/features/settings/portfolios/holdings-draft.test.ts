import { newRow, parseQuantity, problemCount, quantityText, rowsOf, toChange, validateDraft, withoutBlankRows } from './holdings-draft';

const apple = () => newRow({ company: 'Apple Inc.', isin: 'US0378331005', quantity: '120.5' });
const bayer = () => newRow({ company: 'Bayer AG', isin: 'de000bay0017', quantity: '10' });

describe('validateDraft', () => {
  it('takes a named portfolio whose rows are all right', () => {
    expect(validateDraft({ name: 'Core', rows: [apple(), bayer()] })).toBeNull();
    expect(validateDraft({ name: 'Nothing yet', rows: [] })).toBeNull();
  });

  it('asks for a name of at most 100 characters', () => {
    expect(validateDraft({ name: '   ', rows: [] })?.name).toBe('Give the portfolio a name.');
    expect(validateDraft({ name: 'x'.repeat(101), rows: [] })?.name).toBe('The name can be at most 100 characters.');
    expect(validateDraft({ name: 'x'.repeat(100), rows: [] })).toBeNull();
  });

  it('names the row of each problem, with the server’s own sentences', () => {
    const rows = [
      apple(),
      newRow({ company: 'Apple again', isin: 'US0378331006', quantity: '1' }),
      newRow({ company: '  ', isin: 'GB0002634946', quantity: '2' }),
      newRow({ company: 'Apple twice', isin: 'us0378331005', quantity: '3' }),
    ];
    const errors = validateDraft({ name: 'Core', rows });
    expect(errors?.rows[rows[0].key]).toBeUndefined();
    expect(errors?.rows[rows[1].key]).toEqual({ isin: 'Row 2: US0378331006 is not a valid ISIN (the check digit does not match).' });
    expect(errors?.rows[rows[2].key]).toEqual({ company: 'Row 3 needs a company name.' });
    expect(errors?.rows[rows[3].key]).toEqual({ isin: 'Row 4 repeats US0378331005.' });
    expect(problemCount(errors!)).toBe(3);
  });

  it('explains an ISIN of the wrong length', () => {
    const row = newRow({ company: 'Short', isin: 'US037833100', quantity: '1' });
    expect(validateDraft({ name: 'P', rows: [row] })?.rows[row.key].isin).toMatch(/^Row 1: US037833100 is not a valid ISIN \(it has 12 characters/);
  });

  it.each([
    ['', 'Row 1 needs a quantity.'],
    ['abc', 'Row 1: abc is not a quantity (write it with digits and a dot, like 120.5).'],
    ['0', 'Row 1: the quantity must be more than 0.'],
    ['-3', 'Row 1: -3 is not a quantity (write it with digits and a dot, like 120.5).'],
    ['0.0000001', 'Row 1: the quantity can have at most 6 decimal places.'],
  ])('refuses the quantity %j', (quantity, message) => {
    const row = newRow({ company: 'Apple', isin: 'US0378331005', quantity });
    expect(validateDraft({ name: 'P', rows: [row] })?.rows[row.key].quantity).toBe(message);
  });

  it('passes over blank rows but counts them in the row numbers, as the table shows them', () => {
    const rows = [newRow(), newRow({ company: 'Apple', isin: 'US0378331006', quantity: '1' })];
    expect(validateDraft({ name: 'P', rows })?.rows).toEqual({
      [rows[1].key]: { isin: 'Row 2: US0378331006 is not a valid ISIN (the check digit does not match).' },
    });
  });

  it('holds at most 500 holdings', () => {
    const rows = Array.from({ length: 501 }, () => newRow({ company: 'A', isin: 'US0378331005', quantity: '1' }));
    expect(validateDraft({ name: 'P', rows })?.form).toBe('A portfolio holds at most 500 holdings; this one has 501.');
  });
});

describe('quantities', () => {
  it('reads digits with a dot, thousands grouped by commas, and trailing zeros past 6 decimals', () => {
    expect(parseQuantity(' 120.5 ')).toEqual({ value: 120.5 });
    expect(parseQuantity('1,200.25')).toEqual({ value: 1200.25 });
    expect(parseQuantity('.5')).toEqual({ value: 0.5 });
    expect(parseQuantity('0.1234560')).toEqual({ value: 0.123456 });
    expect(parseQuantity('1e3')).toEqual({ problem: 'not_a_number' });
  });

  it('writes a saved quantity back without exponent or grouping', () => {
    expect(quantityText(120.5)).toBe('120.5');
    expect(quantityText(0.000001)).toBe('0.000001');
    expect(quantityText(1234567)).toBe('1234567');
  });
});

describe('what a save sends', () => {
  it('trims, upper-cases ISINs, reads quantities, and leaves blank rows out', () => {
    const rows = [newRow({ company: ' Bayer AG ', isin: ' de000bay0017', quantity: '1,000' }), newRow()];
    expect(withoutBlankRows(rows)).toEqual([rows[0]]);
    expect(toChange({ name: ' Core ', rows })).toEqual({
      name: 'Core',
      holdings: [{ company: 'Bayer AG', isin: 'DE000BAY0017', quantity: 1000 }],
    });
  });

  it('fills rows from a saved portfolio', () => {
    expect(rowsOf([{ company: 'Apple Inc.', isin: 'US0378331005', quantity: 120.5 }])).toEqual([
      expect.objectContaining({ company: 'Apple Inc.', isin: 'US0378331005', quantity: '120.5' }),
    ]);
  });
});
