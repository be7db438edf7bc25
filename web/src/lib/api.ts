/** The app's API client, bound to this page's session. */
import { createApiClient } from './api-client';
import { sessionStore } from './session-store';

export const api = createApiClient({ session: sessionStore });

/** Sends a client-side event to the backend log; a failure is only written to the console. */
export async function logToBackend(logData: Record<string, unknown>): Promise<void> {
  try {
    await api.post<void>('/debug-logs', { body: { logData } });
  } catch (error) {
    console.error('could not send debug log', error);
  }
}
