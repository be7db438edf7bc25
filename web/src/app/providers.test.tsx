import { ApiError } from '../lib/api-client';
import { toastMessageFor } from './providers';
import { GENERIC_FAILURE } from './toast-context';

describe('toastMessageFor', () => {
  const refused = new ApiError(422, 'invalid', 'the server said no');
  const broken = new ApiError(500, 'internal', 'internal error');

  it("shows the server's message for a refusal and the generic text for a failure", () => {
    expect(toastMessageFor(refused, undefined)).toBe('the server said no');
    expect(toastMessageFor(broken, undefined)).toBe(GENERIC_FAILURE);
  });

  it('stays quiet when the page shows the error itself, or the session was lost', () => {
    expect(toastMessageFor(refused, { toast: false })).toBeNull();
    expect(toastMessageFor(new ApiError(401, 'unauthorized', 'x'), { errorToast: 'custom' })).toBeNull();
  });

  it("uses a mutation's own text, or asks it for one", () => {
    expect(toastMessageFor(broken, { errorToast: 'Priority failed' })).toBe('Priority failed');
    expect(toastMessageFor(refused, { errorToast: (e) => `got: ${(e as Error).message}` })).toBe('got: the server said no');
  });
});
