// A real OpenID Connect provider (panva's certified `oidc-provider`) for tests of Needl's
// "sign in with your organisation's identity provider". Test-only: accounts have no passwords.
//
//   node web/e2e/oidc/provider.mjs --port 0 [--client-id ID] [--client-secret S]
//     [--redirect-uri URI]... [--user 'sub:email:name[:unverified]']...
//
// Once listening it prints one JSON line, {"issuer":"http://127.0.0.1:PORT","port":PORT}, and runs
// until SIGTERM or SIGINT. Importers call `startProvider(options)` instead.
//
// Besides the standard endpoints (discovery, /auth, /token, /jwks, /me, /token/revocation) it
// serves:
// - GET  /interaction/:uid        a login form (an "Account" select and a "Sign in" button)
// - POST /interaction/:uid/login  form field `login=<sub>`: signs in and grants the requested
//                                 scopes at once (there is no consent screen), then 303 to resume
// - POST /__test/rotate-keys[?drop_old=1], POST /__test/revoke?sub=SUB, GET /__test/health
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Provider from 'oidc-provider';
import { loginPage } from './login-page.mjs';
import { MemoryStore } from './memory-store.mjs';

export const DEFAULT_USERS = ['alice:alice@example.com:Alice Analyst', 'mallory:mallory@other.example:Mallory:unverified'];
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:8080/api/auth/oidc/callback';

/** Parses 'sub:email:name[:unverified]' into an account's claims. */
export function parseUser(spec) {
  const [sub, email, name, flag] = spec.split(':');
  if (!sub || !email || !name) throw new Error(`--user wants 'sub:email:name', got '${spec}'`);
  return { sub, email, email_verified: flag !== 'unverified', name, preferred_username: sub };
}

/** Returns a fresh RS256 signing key as a private JWK. */
function newSigningKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * Starts the provider on 127.0.0.1. Returns `{ issuer, port, rotateKeys, revoke, close }`.
 *
 * oidc-provider reads its signing keys only in the Provider constructor (they sit in a private
 * cache), so rotating keys builds a new Provider with the new key list behind the same listening
 * socket. Everything else carries over: the store (sessions, interactions, grants, tokens), the
 * cookie keys and the client, so flows in progress and issued tokens survive a rotation.
 */
export async function startProvider({
  port = 0,
  clientId = 'needl',
  clientSecret = 'needl-secret',
  redirectUris = [DEFAULT_REDIRECT_URI],
  users = DEFAULT_USERS,
} = {}) {
  const accounts = new Map(users.map(parseUser).map((user) => [user.sub, user]));
  const store = new MemoryStore();
  const cookieKeys = [randomBytes(32).toString('base64url')];
  let keys = [newSigningKey()];
  let current; // { provider, callback }: replaced on every key rotation

  const server = createServer((req, res) => {
    route(req, res).catch((err) => {
      if (!res.headersSent) send(res, err.statusCode ?? 500, { error: err.error ?? 'server_error', error_description: err.message });
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${server.address().port}`;

  async function build() {
    const provider = new Provider(issuer, {
      adapter: store.adapter(),
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [...redirectUris],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          // The provider accepts client_secret_post from a client registered for _basic too.
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'RS256',
          scope: 'openid offline_access email profile',
        },
      ],
      jwks: { keys },
      findAccount: (ctx, sub) => {
        const account = accounts.get(sub);
        return account && { accountId: sub, claims: () => ({ ...account }) };
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
      // Puts the scopes' claims in the ID token too, not only at the userinfo endpoint.
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
      pkce: { methods: ['S256'], required: () => true },
      // A refresh token for every code exchange, whether or not `offline_access` was asked for.
      issueRefreshToken: (ctx, client) => client.grantTypeAllowed('refresh_token'),
      interactions: { url: (ctx, interaction) => `${issuer}/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
      // The client is a server: no browser calls the provider's endpoints across origins.
      clientBasedCORS: () => false,
      // Plain http: a SameSite=None cookie without Secure is dropped by browsers, so both are lax.
      cookies: {
        keys: cookieKeys,
        long: { signed: true, httpOnly: true, sameSite: 'lax' },
        short: { signed: true, httpOnly: true, sameSite: 'lax' },
      },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 86400, Interaction: 600, Session: 86400, Grant: 86400 },
      renderError: (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    });
    await provider.Client.find(clientId); // validates the client's metadata now, not on first use
    current = { provider, callback: provider.callback() };
  }

  async function route(req, res) {
    const url = new URL(req.url, issuer);
    const interaction = url.pathname.match(/^\/interaction\/([\w-]+)(\/login)?$/);
    if (interaction) return interact(req, res, interaction[1], Boolean(interaction[2]));
    if (url.pathname.startsWith('/__test/')) return control(req, res, url);
    return current.callback(req, res);
  }

  /** Shows the login form, or finishes the interaction: login and consent in one step. */
  async function interact(req, res, uid, submitted) {
    const { provider } = current;
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, { error: 'invalid_request', error_description: 'interaction mismatch' });
    let accountId = details.session?.accountId;
    if (details.prompt.name === 'login') {
      if (!submitted) return send(res, 200, loginPage(uid, details.params, [...accounts.values()]));
      if (req.method !== 'POST') return send(res, 405, { error: 'invalid_request', error_description: 'POST the login form' });
      accountId = new URLSearchParams(await readBody(req)).get('login');
      if (!accounts.has(accountId)) return send(res, 400, { error: 'invalid_request', error_description: `no account '${accountId}'` });
    }
    // Grants every requested scope: the client's scope list bounds what can be asked for.
    const existing = details.prompt.name === 'consent' && details.grantId && (await provider.Grant.find(details.grantId));
    const grant = existing || new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    const result = { consent: { grantId: await grant.save() } };
    if (details.prompt.name === 'login') result.login = { accountId };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** Test controls: key rotation, revocation of an account, health. */
  async function control(req, res, url) {
    const action = `${req.method} ${url.pathname}`;
    if (action === 'GET /__test/health') return send(res, 200, { ok: true, issuer, kids: keys.map((k) => k.kid) });
    if (action === 'POST /__test/rotate-keys') {
      const key = await rotateKeys({ dropOld: url.searchParams.get('drop_old') === '1' });
      return send(res, 200, { kid: key.kid, kids: keys.map((k) => k.kid) });
    }
    if (action === 'POST /__test/revoke') {
      const sub = url.searchParams.get('sub');
      if (!sub) return send(res, 400, { error: 'invalid_request', error_description: 'sub is required' });
      return send(res, 200, { sub, ...revoke(sub) });
    }
    return send(res, 404, { error: 'not_found' });
  }

  /** Puts a new signing key first (ID tokens are signed with it); keeps the old ones unless told. */
  async function rotateKeys({ dropOld = false } = {}) {
    const key = newSigningKey();
    keys = dropOld ? [key] : [key, ...keys];
    await build();
    return key;
  }

  /** Ends the account's sessions and deletes its grants and tokens, so refreshing fails. */
  function revoke(sub) {
    return store.removeAccount(sub);
  }

  async function close() {
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  }

  await build();
  return { issuer, port: server.address().port, rotateKeys, revoke, close };
}

function send(res, status, body) {
  const html = typeof body === 'string';
  res.writeHead(status, {
    'content-type': html ? 'text/html; charset=utf-8' : 'application/json',
    'cache-control': 'no-store',
  });
  res.end(html ? body : JSON.stringify(body));
}

async function readBody(req, limit = 64 * 1024) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > limit) throw Object.assign(new Error('body too large'), { statusCode: 413 });
  }
  return body;
}

async function main() {
  // A parent that stops reading this process's output must not bring the provider down.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.TEST_OIDC_PORT ?? '0' },
      'client-id': { type: 'string', default: process.env.TEST_OIDC_CLIENT_ID ?? 'needl' },
      'client-secret': { type: 'string', default: process.env.TEST_OIDC_CLIENT_SECRET ?? 'needl-secret' },
      'redirect-uri': { type: 'string', multiple: true },
      user: { type: 'string', multiple: true },
    },
  });
  const redirectUris = values['redirect-uri'] ?? process.env.TEST_OIDC_REDIRECT_URIS?.split(/[\s,]+/).filter(Boolean);
  const handle = await startProvider({
    port: Number(values.port),
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    redirectUris: redirectUris?.length ? redirectUris : undefined,
    users: values.user,
  });
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => handle.close().then(() => process.exit(0)));
  }
  // Last: a parent may signal as soon as it reads the line.
  process.stdout.write(`${JSON.stringify({ issuer: handle.issuer, port: handle.port })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
