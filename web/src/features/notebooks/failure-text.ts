/** What a refused write says to the user inline. */
import { isApiError } from '../../lib/api-client';

/**
 * Returns the server's own words for a refusal it explains (4xx: a name in use, say), as the
 * toasts do; `fallback` for a failure it does not explain (5xx, no answer).
 */
export const refusalText = (error: unknown, fallback: string): string =>
  isApiError(error) && error.status < 500 && error.message ? error.message : fallback;
