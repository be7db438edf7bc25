/**
 * The bridge to a host native app that shows Needl in a web view (React Native's WebView). The
 * host sends messages (`window.postMessage`, or a `message` event the web view dispatches on the
 * window or the document), as objects or JSON strings; only the small set below is understood
 * and anything else is ignored. The app answers through `window.ReactNativeWebView.postMessage`.
 *
 * - `{type: 'platform', platform}`: the device platform; on `android` or `ios` the app is native.
 * - `{type: 'navigate', path}`: go to one of the app's pages (never another site or /api).
 * - `{type: 'download_done', kind: 'album' | 'file', name?}` and `{type: 'download_error', message?}`:
 *   the host finished (or failed) a download the app asked for; the app says so in a toast.
 * - `{type: 'history_back'}`: the device's back button. The app goes back; if the address has not
 *   changed 200 ms later (nothing to go back to), on Android the host is told `{type: 'back'}`
 *   (it closes or backgrounds the app), elsewhere the app goes to its root.
 *
 * No React here: the app mounts it once with its router and toasts (src/app/native-bridge.tsx).
 */
import { sameAppPath } from './app-paths';

export type NativePlatform = 'android' | 'ios' | 'web';
export type DownloadKind = 'album' | 'file';

export type NativeMessage =
  | { type: 'platform'; platform: NativePlatform }
  | { type: 'navigate'; path: string }
  | { type: 'download_done'; kind: DownloadKind; name?: string }
  | { type: 'history_back' }
  | { type: 'download_error'; message?: string };

/** How long after going back the app looks whether the address changed. */
export const BACK_CHECK_MS = 200;

/** Where the platform is kept for the tab's life, so a reload inside the web view keeps it. */
export const PLATFORM_STORAGE_KEY = 'needl.platform';

/** The longest text from the host a toast shows. */
const MAX_TEXT = 200;

const PLATFORMS: ReadonlySet<string> = new Set(['android', 'ios', 'web']);

/** Returns a short, single-line text from the host, or undefined for none. */
function hostText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  return text || undefined;
}

/** Returns the message `data` holds (an object or its JSON), or null when it is none the bridge knows. */
export function parseNativeMessage(data: unknown, origin?: string): NativeMessage | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'platform': {
      const platform = typeof message.platform === 'string' ? message.platform.toLowerCase() : '';
      return PLATFORMS.has(platform) ? { type: 'platform', platform: platform as NativePlatform } : null;
    }
    case 'navigate': {
      const path = sameAppPath(message.path, origin);
      return path ? { type: 'navigate', path } : null;
    }
    case 'download_done': {
      if (message.kind !== 'album' && message.kind !== 'file') return null;
      const name = hostText(message.name);
      return { type: 'download_done', kind: message.kind, ...(name ? { name } : {}) };
    }
    case 'history_back':
      return { type: 'history_back' };
    case 'download_error': {
      const text = hostText(message.message);
      return { type: 'download_error', ...(text ? { message: text } : {}) };
    }
    default:
      return null;
  }
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Returns the platform the host app set, or null in a plain browser. */
export function nativePlatform(): NativePlatform | null {
  const stored = storage()?.getItem(PLATFORM_STORAGE_KEY) ?? null;
  return stored && PLATFORMS.has(stored) ? (stored as NativePlatform) : null;
}

/** Returns whether the app runs inside a native app (which has no pricing prompts, per the spec). */
export const isNative = (): boolean => {
  const platform = nativePlatform();
  return platform === 'android' || platform === 'ios';
};

/** Keeps the platform the host app set. */
export function setNativePlatform(platform: NativePlatform): void {
  storage()?.setItem(PLATFORM_STORAGE_KEY, platform);
}

/** The host's side of React Native's WebView, present only inside one. */
interface ReactNativeWebView {
  postMessage(message: string): void;
}

/** Sends a message to the host app; in a plain browser there is nobody to tell. */
export function postToHost(message: { type: string }): void {
  const host = (window as Window & { ReactNativeWebView?: ReactNativeWebView }).ReactNativeWebView;
  host?.postMessage(JSON.stringify(message));
}

/** What the bridge needs of the app. */
export interface NativeBridgeDeps {
  /** Goes to one of the app's pages. */
  navigate: (path: string) => void;
  /** Goes back in the app's history. */
  back: () => void;
  /** The app's current address (path, query and hash). */
  address: () => string;
  /** Shows a toast. */
  notify: (kind: 'success' | 'error', message: string) => void;
  /** Tells the host app (`postToHost` by default). */
  post?: (message: { type: string }) => void;
}

/** Returns the words a finished download shows. */
export function downloadDoneText(kind: DownloadKind, name?: string): string {
  if (name) return `Downloaded ${name}`;
  return kind === 'album' ? 'Album downloaded' : 'File downloaded';
}

export const DOWNLOAD_FAILED = 'The download failed. Please try again.';

/** Returns the function that acts on one message. Timers are the global ones (tests fake them). */
export function createNativeHandler({ navigate, back, address, notify, post = postToHost }: NativeBridgeDeps) {
  const goBack = () => {
    const before = address();
    back();
    setTimeout(() => {
      if (address() !== before) return;
      if (nativePlatform() === 'android') post({ type: 'back' });
      else navigate('/');
    }, BACK_CHECK_MS);
  };

  return (message: NativeMessage): void => {
    switch (message.type) {
      case 'platform':
        return setNativePlatform(message.platform);
      case 'navigate':
        return navigate(message.path);
      case 'download_done':
        return notify('success', downloadDoneText(message.kind, message.name));
      case 'download_error':
        return notify('error', message.message ?? DOWNLOAD_FAILED);
      case 'history_back':
        return goBack();
    }
  };
}

/**
 * Listens for the host's messages on the window and the document (where Android's web view
 * dispatches them) and acts on those the bridge knows. Messages of other windows (a frame, an
 * opener) or origins are ignored. Returns the function that stops listening.
 */
export function startNativeBridge(deps: NativeBridgeDeps): () => void {
  const handle = createNativeHandler(deps);
  const origin = window.location.origin;
  const seen = new WeakSet<Event>();
  const listener = (event: Event) => {
    if (seen.has(event) || !(event instanceof MessageEvent)) return;
    seen.add(event);
    if (event.source && event.source !== window) return;
    if (event.origin && event.origin !== origin) return;
    const message = parseNativeMessage(event.data, origin);
    if (message) handle(message);
  };
  window.addEventListener('message', listener);
  document.addEventListener('message', listener);
  return () => {
    window.removeEventListener('message', listener);
    document.removeEventListener('message', listener);
  };
}
