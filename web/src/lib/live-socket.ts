/**
 * The connection to `/api/live`. It remembers the cursor of the last event and, when the
 * connection drops, reconnects with `after=<cursor>` after a growing delay, so no event is missed.
 * It only delivers parsed events; what they mean for the cache lives in `live-events.ts`.
 */
import type { LiveEvent } from './live-events';

export interface LiveSocketOptions {
  /** Returns the token to connect with; no token means no connection. */
  token: () => string | null;
  onEvent: (event: LiveEvent) => void;
  /** Called after each connection opens; `reconnected` is false for the first one. */
  onOpen?: (reconnected: boolean) => void;
  /** Called when the connection opens or drops. */
  onStatus?: (status: LiveStatus) => void;
  WebSocketImpl?: typeof WebSocket;
  location?: Pick<Location, 'protocol' | 'host'>;
  minDelayMs?: number;
  maxDelayMs?: number;
}

export type LiveStatus = 'connecting' | 'open';

export interface LiveSocket {
  start(): void;
  stop(): void;
  /** The cursor of the last event received. */
  cursor(): string | null;
}

/** Returns the URL of the live endpoint for a token and an optional resume cursor. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>, token: string, after: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const params = new URLSearchParams({ token });
  if (after) params.set('after', after);
  return `${scheme}://${location.host}/api/live?${params.toString()}`;
}

export function createLiveSocket(options: LiveSocketOptions): LiveSocket {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const minDelay = options.minDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 15_000;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempts = 0;
  let cursor: string | null = null;
  let running = false;
  let opened = false;

  const scheduleReconnect = () => {
    if (!running || timer) return;
    const base = Math.min(maxDelay, minDelay * 2 ** attempts);
    attempts += 1;
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, base + Math.random() * base * 0.2);
  };

  const connect = () => {
    if (!running) return;
    const token = options.token();
    if (!token) return;
    const ws = new Impl(liveUrl(options.location ?? window.location, token, cursor));
    socket = ws;
    ws.onopen = () => {
      attempts = 0;
      options.onStatus?.('open');
      options.onOpen?.(opened);
      opened = true;
    };
    ws.onmessage = (message: MessageEvent) => {
      try {
        const event = JSON.parse(String(message.data)) as LiveEvent;
        if (event.cursor) cursor = event.cursor;
        options.onEvent(event);
      } catch (error) {
        console.error('ignoring a malformed live message', error);
      }
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      options.onStatus?.('connecting');
      scheduleReconnect();
    };
  };

  return {
    start() {
      if (running) return;
      running = true;
      connect();
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      const ws = socket;
      socket = null;
      ws?.close();
    },
    cursor: () => cursor,
  };
}
