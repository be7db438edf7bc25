import { createLiveSocket, liveUrl } from './live-socket';

class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  push(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
}

const location = { protocol: 'http:', host: 'localhost:8080' };

describe('live socket', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('builds ws and wss addresses with the token and the resume cursor', () => {
    expect(liveUrl(location, 'tok', null)).toBe('ws://localhost:8080/api/live?token=tok');
    expect(liveUrl({ protocol: 'https:', host: 'x.io' }, 'tok', '42')).toBe('wss://x.io/api/live?token=tok&after=42');
  });

  it('delivers events and reconnects after the last cursor when the connection drops', () => {
    const events: string[] = [];
    const live = createLiveSocket({
      token: () => 'tok',
      onEvent: (e) => events.push(e.type),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      location,
      minDelayMs: 100,
    });
    live.start();
    const first = FakeSocket.instances[0];
    first.onopen?.();
    first.push({ cursor: 'c9', type: 'PreferencesChanged', ids: ['u1'] });
    expect(events).toEqual(['PreferencesChanged']);

    first.onclose?.();
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(150);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(FakeSocket.instances[1].url).toContain('after=c9');
    live.stop();
  });

  it('waits longer after each failed attempt', () => {
    const live = createLiveSocket({
      token: () => 'tok',
      onEvent: () => {},
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      location,
      minDelayMs: 100,
    });
    live.start();
    FakeSocket.instances[0].onclose?.();
    vi.advanceTimersByTime(121);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1].onclose?.();
    vi.advanceTimersByTime(150);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(100);
    expect(FakeSocket.instances).toHaveLength(3);
    live.stop();
  });

  it('stops reconnecting once stopped', () => {
    const live = createLiveSocket({
      token: () => 'tok',
      onEvent: () => {},
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      location,
    });
    live.start();
    live.stop();
    expect(FakeSocket.instances[0].closed).toBe(true);
    FakeSocket.instances[0].onclose?.();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });
});
