import { isinDigits, isinProblem, isValidIsin, luhnValid, normalizeIsin } from './isin';

describe('ISIN check', () => {
  it.each(['US0378331005', 'GB0002634946', 'DE000BAY0017', 'AU0000XVGZA3', 'NL0000729408'])('accepts %s', (isin) => {
    expect(isValidIsin(isin)).toBe(true);
  });

  it('refuses a wrong check digit', () => {
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(isinProblem('US0378331006')).toBe('check_digit');
  });

  it.each([
    ['11 characters', 'US037833100'],
    ['13 characters', 'US03783310055'],
    ['digits for a country', '120378331005'],
    ['a letter for the check digit', 'US037833100A'],
    ['punctuation', 'US-378331005'],
    ['nothing', ''],
  ])('refuses %s as not shaped like an ISIN', (_, isin) => {
    expect(isinProblem(isin)).toBe('shape');
  });

  it('accepts lowercase and spaces around, as the server does after trimming and upper-casing', () => {
    expect(isValidIsin('us0378331005')).toBe(true);
    expect(isValidIsin('  de000bay0017 ')).toBe(true);
    expect(normalizeIsin(' gb0002634946\t')).toBe('GB0002634946');
  });

  it('turns letters into numbers from A=10 to Z=35', () => {
    expect(isinDigits('AZ09')).toBe('103509');
    expect(isinDigits('US0378331005')).toBe('3028037833100' + '5');
  });

  it('runs the Luhn sum over the digit string', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });
});
