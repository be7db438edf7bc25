import {
  BACK_CHECK_MS,
  createNativeHandler,
  DOWNLOAD_FAILED,
  isNative,
  nativePlatform,
  parseNativeMessage,
  startNativeBridge,
  type NativeBridgeDeps,
} from './native-bridge';

const ORIGIN = 'https://needl.example';

describe('parseNativeMessage', () => {
  it('reads the host’s messages as objects or JSON strings', () => {
    expect(parseNativeMessage({ type: 'platform', platform: 'Android' })).toEqual({ type: 'platform', platform: 'android' });
    expect(parseNativeMessage('{"type":"history_back"}')).toEqual({ type: 'history_back' });
    expect(parseNativeMessage({ type: 'download_done', kind: 'album' })).toEqual({ type: 'download_done', kind: 'album' });
    expect(parseNativeMessage({ type: 'download_done', kind: 'file', name: ' report.pdf ' })).toEqual({
      type: 'download_done',
      kind: 'file',
      name: 'report.pdf',
    });
    expect(parseNativeMessage({ type: 'download_error', message: 'No space left' })).toEqual({
      type: 'download_error',
      message: 'No space left',
    });
  });

  it('navigates only to the app’s own pages', () => {
    expect(parseNativeMessage({ type: 'navigate', path: '/search/full?q=rates#top' }, ORIGIN)).toEqual({
      type: 'navigate',
      path: '/search/full?q=rates#top',
    });
    for (const path of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/api/user', 'feeds', 42]) {
      expect(parseNativeMessage({ type: 'navigate', path }, ORIGIN)).toBeNull();
    }
  });

  it('ignores anything else', () => {
    const unknown = [
      null,
      'not json',
      '"history_back"',
      { type: 'platform', platform: 'windows' },
      { type: 'download_done', kind: 'video' },
      { type: 'eval', code: 'x' },
      [1],
    ];
    for (const data of unknown) expect(parseNativeMessage(data, ORIGIN)).toBeNull();
  });

  it('keeps only a short line of the host’s text', () => {
    const long = parseNativeMessage({ type: 'download_error', message: `a\n${'b'.repeat(500)}` });
    expect(long).toEqual({ type: 'download_error', message: `a ${'b'.repeat(198)}` });
    expect(parseNativeMessage({ type: 'download_error', message: '   ' })).toEqual({ type: 'download_error' });
  });
});

/** A fake app: an address that navigation changes (or not: `stuck`), and what it was asked. */
function fakeApp(start: string, { stuck = false } = {}) {
  const history = [start];
  const calls: Array<string | -1> = [];
  const toasts: Array<[string, string]> = [];
  const posted: Array<{ type: string }> = [];
  const deps: NativeBridgeDeps = {
    navigate: (path) => {
      calls.push(path);
      history.push(path);
    },
    back: () => {
      calls.push(-1);
      if (!stuck && history.length > 1) history.pop();
    },
    address: () => history[history.length - 1],
    notify: (kind, message) => toasts.push([kind, message]),
    post: (message) => posted.push(message),
  };
  return { deps, calls, toasts, posted, history };
}

describe('the native handler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the platform: native on Android and iOS, not on the web', () => {
    const app = fakeApp('/feeds/home');
    const handle = createNativeHandler(app.deps);
    expect(isNative()).toBe(false);
    handle({ type: 'platform', platform: 'android' });
    expect(nativePlatform()).toBe('android');
    expect(isNative()).toBe(true);
    handle({ type: 'platform', platform: 'web' });
    expect(isNative()).toBe(false);
  });

  it('goes to the page a navigate message names', () => {
    const app = fakeApp('/feeds/home');
    createNativeHandler(app.deps)({ type: 'navigate', path: '/notifications' });
    expect(app.history).toEqual(['/feeds/home', '/notifications']);
  });

  it('says in a toast that a download finished or failed', () => {
    const app = fakeApp('/feeds/home');
    const handle = createNativeHandler(app.deps);
    handle({ type: 'download_done', kind: 'album' });
    handle({ type: 'download_done', kind: 'file', name: 'q3.pdf' });
    handle({ type: 'download_done', kind: 'file' });
    handle({ type: 'download_error' });
    handle({ type: 'download_error', message: 'No space left' });
    expect(app.toasts).toEqual([
      ['success', 'Album downloaded'],
      ['success', 'Downloaded q3.pdf'],
      ['success', 'File downloaded'],
      ['error', DOWNLOAD_FAILED],
      ['error', 'No space left'],
    ]);
  });

  it('goes back, and does nothing more when the address changed', () => {
    const app = fakeApp('/feeds/home');
    app.history.push('/search?q=x');
    createNativeHandler(app.deps)({ type: 'history_back' });
    vi.advanceTimersByTime(BACK_CHECK_MS);
    expect(app.calls).toEqual([-1]);
    expect(app.history).toEqual(['/feeds/home']);
    expect(app.posted).toEqual([]);
  });

  it('on Android, tells the host to go back when going back changed nothing after 200 ms', () => {
    const app = fakeApp('/feeds/home', { stuck: true });
    const handle = createNativeHandler(app.deps);
    handle({ type: 'platform', platform: 'android' });
    handle({ type: 'history_back' });
    vi.advanceTimersByTime(BACK_CHECK_MS - 1);
    expect(app.posted).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(app.posted).toEqual([{ type: 'back' }]);
    expect(app.calls).toEqual([-1]);
  });

  it('elsewhere, goes to the root when going back changed nothing', () => {
    const app = fakeApp('/feeds/home', { stuck: true });
    const handle = createNativeHandler(app.deps);
    handle({ type: 'platform', platform: 'ios' });
    handle({ type: 'history_back' });
    vi.advanceTimersByTime(BACK_CHECK_MS);
    expect(app.calls).toEqual([-1, '/']);
    expect(app.posted).toEqual([]);
  });
});

describe('startNativeBridge', () => {
  afterEach(() => vi.unstubAllGlobals());

  const send = (target: EventTarget, data: unknown, init: MessageEventInit = {}) =>
    target.dispatchEvent(new MessageEvent('message', { data, ...init }));

  it('acts on messages dispatched on the window or the document, once each, until stopped', () => {
    const app = fakeApp('/feeds/home');
    const stop = startNativeBridge(app.deps);
    send(window, { type: 'navigate', path: '/notifications' });
    send(document, JSON.stringify({ type: 'navigate', path: '/search' }), { bubbles: true });
    stop();
    send(window, { type: 'navigate', path: '/settings' });
    expect(app.history).toEqual(['/feeds/home', '/notifications', '/search']);
  });

  it('ignores messages of another origin or another window', () => {
    const app = fakeApp('/feeds/home');
    const stop = startNativeBridge(app.deps);
    send(window, { type: 'navigate', path: '/notifications' }, { origin: 'https://evil.example' });
    const frame = document.createElement('iframe');
    document.body.append(frame);
    send(window, { type: 'navigate', path: '/notifications' }, { source: frame.contentWindow });
    send(window, { type: 'navigate', path: '/search' }, { origin: window.location.origin, source: window });
    stop();
    frame.remove();
    expect(app.history).toEqual(['/feeds/home', '/search']);
  });

  it('answers the host through React Native’s web view', () => {
    vi.useFakeTimers();
    const postMessage = vi.fn();
    vi.stubGlobal('ReactNativeWebView', { postMessage });
    const app = fakeApp('/feeds/home', { stuck: true });
    const stop = startNativeBridge({ ...app.deps, post: undefined });
    send(window, { type: 'platform', platform: 'android' });
    send(window, { type: 'history_back' });
    vi.advanceTimersByTime(BACK_CHECK_MS);
    stop();
    vi.useRealTimers();
    expect(postMessage).toHaveBeenCalledWith('{"type":"back"}');
  });
});
