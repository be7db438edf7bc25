import { ApiError } from '../../lib/api-client';
import { CALL_FAILED, refusalText } from './refusal';

describe('what a connection form says of a refusal', () => {
  it('shows the server’s words as a sentence, a failure without words plainly, and nothing for the plan', () => {
    expect(refusalText(new ApiError(422, 'invalid_mail_host', '"a b" is not a host name or address'))).toBe(
      '"a b" is not a host name or address.',
    );
    expect(refusalText(new ApiError(422, 'webdav_not_a_folder', 'the address is a file, not a folder'))).toBe(
      'The address is a file, not a folder.',
    );
    expect(refusalText(new ApiError(500, 'internal', 'internal error'))).toBe(CALL_FAILED);
    expect(refusalText(new ApiError(403, 'plan_required', 'Not in your plan.'))).toBeNull();
    expect(refusalText(null)).toBeNull();
  });
});
