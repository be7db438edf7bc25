/**
 * The HTTP client for `/api`. Every call carries the `token`, `app-type` and `x-request-origin`
 * headers. A 403 that the backend marks with `x-backend-origin` is retried with a fresh token at
 * most twice; after that, or when a signed-in call gets a 401, the session is expired so the app
 * can prompt for a new sign-in. Errors are thrown as `ApiError`; nothing here touches the UI.
 */
import type { SessionStore, SessionUser } from './session-store';

export const API_BASE = '/api';
export const APP_TYPE = 'web';
/** How many times a backend 403 is retried with a refreshed token. */
export const MAX_FORBIDDEN_RETRIES = 2;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Seconds to wait before trying again, from a throttled answer's `Retry-After` (429). */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, message: string, retryAfter: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The error code of a write the user's plan does not allow (403). */
export const PLAN_REQUIRED = 'plan_required';

/** Returns whether `error` is a write the user's plan refused. */
export const isPlanRefusal = (error: unknown): error is ApiError =>
  isApiError(error) && error.status === 403 && error.code === PLAN_REQUIRED;

/**
 * Server failures whose words are written for people: the database not answering (503) and the
 * server's disk full (507) each say that nothing was saved and what to do.
 */
const SPOKEN_FAILURES = new Set(['storage_unavailable', 'disk_full']);

/**
 * Returns the words the server wrote for a person about `error`, or null when it wrote none: a
 * refusal (4xx) in the API's `{code, message}` shape, or one of the server failures that speak to
 * people. Any other 5xx says nothing of its cause, a bare status only repeats it, a lost session
 * (401) has its own prompt, and a failure to reach the server is not the server's.
 */
export function serverMessage(error: unknown): string | null {
  if (!isApiError(error) || error.status < 400 || error.status === 401) return null;
  if (error.status >= 500 && !SPOKEN_FAILURES.has(error.code)) return null;
  if (/^http_\d+$/.test(error.code) || !error.message.trim()) return null;
  return error.message;
}

export interface AuthResponse {
  token: string;
  user: SessionUser;
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Sent instead of the session's token: one handed over outside the session (organisation sign-in). */
  token?: string;
}

/** A file the server sent, with the name its `Content-Disposition` gave (if any). */
export interface FileDownload {
  blob: Blob;
  fileName: string | null;
}

export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** GETs a file (not JSON), with the same headers, retries and errors as the other calls. */
  getFile(path: string, options?: RequestOptions): Promise<FileDownload>;
  /** POSTs and returns the response itself once it is ok, for a body read as a stream (server-sent events). */
  postStream(path: string, options?: RequestOptions): Promise<Response>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
  put<T>(path: string, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** Exchanges the current token for a fresh one; concurrent callers share one request. */
  refreshToken(): Promise<AuthResponse>;
}

export interface ApiClientConfig {
  session: SessionStore;
  fetch?: typeof fetch;
  /** Returns the path the user is on, sent as `x-request-origin`. */
  origin?: () => string;
}

async function toApiError(response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let message = response.statusText || `request failed with status ${response.status}`;
  try {
    const body = (await response.json()) as { code?: string; message?: string };
    if (body.code) code = body.code;
    if (body.message) message = body.message;
  } catch {
    // A body that is not our JSON error shape keeps the status-based message.
  }
  return new ApiError(response.status, code, message, retryAfterOf(response.headers.get('retry-after')));
}

/** Returns a `Retry-After` header's seconds (the delay form; an HTTP date is not sent by this server). */
export function retryAfterOf(header: string | null): number | null {
  if (!header || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header.trim());
}

export function createApiClient(config: ApiClientConfig): ApiClient {
  const doFetch = config.fetch ?? ((input, init) => fetch(input, init));
  const origin = config.origin ?? (() => window.location.pathname);
  let refreshing: Promise<AuthResponse> | null = null;

  const send = (method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { 'app-type': APP_TYPE, 'x-request-origin': origin() };
    const token = options.token ?? config.session.get().token;
    if (token) headers.token = token;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return doFetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  };

  const refreshToken = () => {
    refreshing ??= (async () => {
      try {
        const response = await send('POST', '/auth/refresh');
        if (!response.ok) throw await toApiError(response);
        const auth = (await response.json()) as AuthResponse;
        config.session.signIn(auth.token, auth.user);
        return auth;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  };

  /** Sends a call, refreshing the token on a backend 403; returns the successful response. */
  const respond = async (method: string, path: string, options?: RequestOptions): Promise<Response> => {
    const isAuthCall = path.startsWith('/auth/');
    let response = await send(method, path, options);
    for (let retry = 0; retry < MAX_FORBIDDEN_RETRIES && isBackendForbidden(response); retry += 1) {
      try {
        await refreshToken();
      } catch {
        break;
      }
      response = await send(method, path, options);
    }
    if (isBackendForbidden(response) || (response.status === 401 && !isAuthCall && config.session.get().token)) {
      config.session.expire();
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  };

  const request = async <T>(method: string, path: string, options?: RequestOptions): Promise<T> => {
    const response = await respond(method, path, options);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    get: (path, options) => request('GET', path, options),
    getFile: async (path, options) => {
      const response = await respond('GET', path, options);
      return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
    },
    post: (path, options) => request('POST', path, options),
    postStream: (path, options) => respond('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
    refreshToken,
  };
}

const isBackendForbidden = (response: Response) =>
  response.status === 403 && response.headers.has('x-backend-origin');

/**
 * Returns the file name a `Content-Disposition` header gives: the RFC 5987 `filename*` form
 * (UTF-8, percent-encoded) when present, else the plain `filename`.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoding falls through to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  if (!plain) return null;
  return (plain[2] ?? plain[1]).trim() || null;
}
