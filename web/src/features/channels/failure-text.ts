/** What a refused call says to the user: the server's words for a refusal, else a generic line. */
import { isApiError } from '../../lib/api-client';
import { SOMETHING_WENT_WRONG } from './messages';

export const failureText = (error: unknown): string =>
  isApiError(error) && error.status < 500 && error.message ? error.message : SOMETHING_WENT_WRONG;
