import { ApiError, createApiClient, fileNameOf, retryAfterOf, serverMessage } from './api-client';
import { createSessionStore } from './session-store';

const user = { id: 'u1', email_id: 'a@b.co', username: 'ann', is_admin: false };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const backendForbidden = () => json(403, { code: 'forbidden', message: 'forbidden' }, { 'x-backend-origin': 'api' });

function setup(responses: Array<(url: string, init: RequestInit) => Response>) {
  const session = createSessionStore(window.localStorage);
  session.signIn('old-token', user);
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchStub = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error(`unexpected call to ${String(url)}`);
    return next(String(url), init ?? {});
  });
  const client = createApiClient({ session, fetch: fetchStub as typeof fetch, origin: () => '/feeds/home' });
  return { client, session, calls };
}

const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('api client', () => {
  it('sends the token, app-type and x-request-origin headers on every call', async () => {
    const { client, calls } = setup([() => json(200, { ok: true })]);
    await client.get('/user');
    expect(calls[0].url).toBe('/api/user');
    expect(headersOf(calls[0].init)).toMatchObject({
      token: 'old-token',
      'app-type': 'web',
      'x-request-origin': '/feeds/home',
    });
  });

  it('sends a token handed over outside the session instead of the session’s, when given one', async () => {
    const { client, calls } = setup([() => json(200, { ok: true })]);
    await client.post('/auth/refresh', { token: 'handed-over' });
    expect(headersOf(calls[0].init).token).toBe('handed-over');
  });

  it('retries a backend 403 with a refreshed token', async () => {
    const { client, calls, session } = setup([
      backendForbidden,
      () => json(200, { token: 'new-token', user }),
      () => json(200, { id: 'u1' }),
    ]);
    await expect(client.get('/user')).resolves.toEqual({ id: 'u1' });
    expect(calls.map((c) => c.url)).toEqual(['/api/user', '/api/auth/refresh', '/api/user']);
    expect(headersOf(calls[2].init).token).toBe('new-token');
    expect(session.get().token).toBe('new-token');
  });

  it('gives up after two refreshes and expires the session', async () => {
    const { client, calls, session } = setup([
      backendForbidden,
      () => json(200, { token: 't2', user }),
      backendForbidden,
      () => json(200, { token: 't3', user }),
      backendForbidden,
    ]);
    await expect(client.get('/user')).rejects.toMatchObject({ status: 403 });
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(2);
    expect(session.get()).toMatchObject({ token: null, expired: true });
  });

  it('does not retry a 403 that does not come from the backend', async () => {
    const { client, calls, session } = setup([() => json(403, { code: 'forbidden', message: 'nope' })]);
    await expect(client.get('/user')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
    expect(session.get().token).toBe('old-token');
  });

  it('expires the session when the token cannot be refreshed', async () => {
    const { client, session } = setup([backendForbidden, () => json(401, { code: 'unauthorized', message: 'bad token' })]);
    await expect(client.get('/user')).rejects.toMatchObject({ status: 403 });
    expect(session.get().expired).toBe(true);
  });

  it('throws the server message and code for an error body', async () => {
    const { client } = setup([() => json(409, { code: 'conflict', message: 'email already taken' })]);
    await expect(client.post('/auth/signup', { body: {} })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'email already taken',
    });
  });

  it("keeps a throttled answer's Retry-After seconds", async () => {
    const { client } = setup([
      () => json(429, { code: 'too_many_codes', message: 'too many codes asked for' }, { 'retry-after': '42' }),
      () => json(422, { code: 'wrong_code', message: 'that code is not right' }),
    ]);
    await expect(client.post('/user/whatsapp/otp', { body: {} })).rejects.toMatchObject({ status: 429, retryAfter: 42 });
    await expect(client.post('/user/whatsapp/verify', { body: {} })).rejects.toMatchObject({ status: 422, retryAfter: null });
  });

  it('does not expire the session for a wrong password on sign-in', async () => {
    const { client, session } = setup([() => json(401, { code: 'unauthorized', message: 'invalid email or password' })]);
    await expect(client.post('/auth/signin', { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(session.get().expired).toBe(false);
  });

  it('fetches a file with the same headers and reads its name from Content-Disposition', async () => {
    const { client, calls } = setup([
      () =>
        new Response('%PDF-1.4', {
          status: 200,
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="q3 report.pdf"' },
        }),
    ]);
    const file = await client.getFile('/doc/needldrive/file?deeplink=d1');
    expect(calls[0].url).toBe('/api/doc/needldrive/file?deeplink=d1');
    expect(headersOf(calls[0].init).token).toBe('old-token');
    expect(file.fileName).toBe('q3 report.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.4');
  });

  it('throws the JSON error of a file call like any other', async () => {
    const { client } = setup([() => json(404, { code: 'not_found', message: 'document not found' })]);
    await expect(client.getFile('/doc/x/file?deeplink=y')).rejects.toMatchObject({ status: 404, message: 'document not found' });
  });
});

describe('retryAfterOf', () => {
  it('reads delay seconds and nothing else', () => {
    expect(retryAfterOf('60')).toBe(60);
    expect(retryAfterOf(' 7 ')).toBe(7);
    expect(retryAfterOf(null)).toBeNull();
    expect(retryAfterOf('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
    expect(retryAfterOf('-3')).toBeNull();
  });
});

describe('fileNameOf', () => {
  it('prefers the UTF-8 filename* form and falls back to filename', () => {
    expect(fileNameOf("attachment; filename=\"a.pdf\"; filename*=UTF-8''%C3%A9t%C3%A9.pdf")).toBe('été.pdf');
    expect(fileNameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameOf('inline')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});

describe('serverMessage', () => {
  it('gives the words of a refusal, and of a full disk or an unreachable database, but not of other failures', () => {
    expect(serverMessage(new ApiError(422, 'name_too_long', 'Names are at most 100 characters'))).toBe(
      'Names are at most 100 characters',
    );
    const full = 'The server has run out of disk space, so nothing was saved. Try again once space has been freed.';
    expect(serverMessage(new ApiError(507, 'disk_full', full))).toBe(full);
    expect(serverMessage(new ApiError(503, 'storage_unavailable', 'Try again in a moment.'))).toBe(
      'Try again in a moment.',
    );
    expect(serverMessage(new ApiError(500, 'internal', 'something went wrong on our side'))).toBeNull();
    expect(serverMessage(new ApiError(401, 'session_expired', 'Sign in again'))).toBeNull();
    expect(serverMessage(new ApiError(404, 'http_404', 'Not Found'))).toBeNull();
  });
});
