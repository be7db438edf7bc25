import { ApiError } from './api-client';
import { createQueryClient, shouldRetry } from './query-client';

describe('query retries', () => {
  it('retries a failed query while it has failed fewer than two times', () => {
    const error = new ApiError(500, 'internal', 'boom');
    expect(shouldRetry(0, error)).toBe(true);
    expect(shouldRetry(1, error)).toBe(true);
    expect(shouldRetry(2, error)).toBe(false);
  });

  it('never retries a 401 or a 404', () => {
    expect(shouldRetry(0, new ApiError(401, 'unauthorized', 'no'))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'no'))).toBe(false);
  });

  it('does not refetch on window focus', () => {
    expect(createQueryClient().getDefaultOptions().queries?.refetchOnWindowFocus).toBe(false);
  });
});
