/** What the connection forms and dialogs say when the server refused a call. */
import { isPlanRefusal, serverMessage } from '../../lib/api-client';
import { asSentence } from '../../lib/format';

export const CALL_FAILED = 'That did not work just now. Please try again in a moment.';

/**
 * Returns what a form says about a refused call: the server's own words (a refused password, an
 * unreachable server, a folder that is not there), or a plain failure when it gave none; null for
 * a refusal of the plan, which the pricing prompt shows instead.
 */
export function refusalText(error: unknown): string | null {
  if (!error || isPlanRefusal(error)) return null;
  const message = serverMessage(error);
  return message ? asSentence(message) : CALL_FAILED;
}
