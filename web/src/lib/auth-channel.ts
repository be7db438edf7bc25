/**
 * Tells other tabs of this browser about sign-in and sign-out over `authentication-status-channel`.
 * One channel object serves the page for both sending and listening: a BroadcastChannel never
 * receives its own messages, so the page does not react to what it announced itself.
 */

export const AUTH_CHANNEL_NAME = 'authentication-status-channel';

export type AuthMessage = { type: 'login' } | { type: 'logout' };

let channel: BroadcastChannel | null | undefined;
const handlers = new Set<(message: AuthMessage) => void>();

function pageChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL_NAME) : null;
  if (channel) channel.onmessage = (event: MessageEvent<AuthMessage>) => handlers.forEach((h) => h(event.data));
  return channel;
}

/** Announces a sign-in or sign-out to the other tabs. */
export function broadcastAuth(message: AuthMessage): void {
  pageChannel()?.postMessage(message);
}

/** Calls `handler` for every message from other tabs; returns the unsubscribe function. */
export function onAuthBroadcast(handler: (message: AuthMessage) => void): () => void {
  pageChannel();
  handlers.add(handler);
  return () => handlers.delete(handler);
}
