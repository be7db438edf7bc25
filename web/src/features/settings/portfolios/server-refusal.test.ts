import { ApiError } from '../../../lib/api-client';
import { readRefusal, SAVE_FAILED } from './server-refusal';

describe('readRefusal', () => {
  it('finds the row and field a refusal names', () => {
    const message = 'Row 2: US0378331006 is not a valid ISIN (the check digit does not match).';
    expect(readRefusal(new ApiError(400, 'invalid_isin', message))).toEqual({ message, field: 'isin', row: 2 });
    expect(readRefusal(new ApiError(400, 'duplicate_isin', 'Row 4 repeats US0378331005.'))).toMatchObject({ field: 'isin', row: 4 });
    expect(readRefusal(new ApiError(400, 'holding_company_required', 'Row 3 needs a company name.'))).toMatchObject({
      field: 'company',
      row: 3,
    });
  });

  it('keeps a refusal about the name or the whole portfolio without a row', () => {
    expect(readRefusal(new ApiError(400, 'portfolio_name_too_long', 'the name is too long'))).toEqual({
      message: 'the name is too long',
      field: 'name',
    });
    expect(readRefusal(new ApiError(400, 'too_many_holdings', 'at most 500 holdings'))).toEqual({ message: 'at most 500 holdings' });
  });

  it('says plainly that saving failed when the server gave no words for a person', () => {
    expect(readRefusal(new ApiError(500, 'internal', 'internal error'))).toEqual({ message: SAVE_FAILED });
    expect(readRefusal(new TypeError('Failed to fetch'))).toEqual({ message: SAVE_FAILED });
  });
});
