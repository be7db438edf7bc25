// Checks the test OpenID Connect provider the way Needl's server will use it: a confidential
// client doing authorization code + PKCE over plain HTTP with manual redirects and a cookie jar.
//
//   node --test web/e2e/oidc/provider.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const CLIENT = { id: 'needl', secret: 'needl-secret', redirectUri: 'http://127.0.0.1:8080/api/auth/oidc/callback' };

// jose comes with oidc-provider, not as the app's own dependency: without it, node:crypto checks
// the signature instead.
const jose = await import('jose').catch(() => undefined);

let provider;
let issuer;
let discovery;

before(async () => {
  provider = spawn(process.execPath, [fileURLToPath(new URL('./provider.mjs', import.meta.url)), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: provider.stdout }), 'line', { signal: AbortSignal.timeout(15_000) });
  ({ issuer } = JSON.parse(line));
  discovery = await getJson(`${issuer}/.well-known/openid-configuration`);
});

after(async () => {
  provider.kill('SIGTERM');
  const [code] = await once(provider, 'exit');
  assert.equal(code, 0, 'the provider exits cleanly on SIGTERM');
});

test('discovery describes a code-only provider with S256 PKCE and client secrets', () => {
  assert.equal(discovery.issuer, issuer);
  assert.deepEqual(discovery.response_types_supported, ['code']);
  assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(discovery.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
  assert.ok(discovery.id_token_signing_alg_values_supported.includes('RS256'));
  assert.deepEqual(discovery.scopes_supported.filter((s) => s !== 'offline_access'), ['openid', 'email', 'profile']);
});

test('the JWKS publishes one RS256 signing key', async () => {
  const { keys } = await getJson(discovery.jwks_uri);
  assert.equal(keys.length, 1);
  assert.equal(keys[0].alg, 'RS256');
  assert.equal(keys[0].use, 'sig');
  assert.equal(keys[0].d, undefined, 'no private part');
});

test('an authorization request without PKCE is sent back with invalid_request', async () => {
  const url = authorizationUrl({ state: 'no-pkce', nonce: 'n' });
  url.searchParams.delete('code_challenge');
  url.searchParams.delete('code_challenge_method');
  const res = await new CookieJar().fetch(url);
  assert.equal(res.status, 303);
  const back = new URL(res.headers.get('location'));
  assert.equal(back.searchParams.get('error'), 'invalid_request');
  assert.equal(back.searchParams.get('state'), 'no-pkce');
});

test('the login page is a labelled form listing the accounts', async () => {
  const { jar, interactionUrl } = await startAuthorization();
  const res = await jar.fetch(interactionUrl);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<label for="login">Account<\/label>/);
  assert.match(html, /<option value="alice">Alice Analyst/);
  assert.match(html, /<option value="mallory">/);
  assert.match(html, new RegExp(`action="${new URL(interactionUrl).pathname}/login"`));
});

test('an unknown account is refused at the login form', async () => {
  const { jar, interactionUrl } = await startAuthorization();
  const res = await jar.fetch(`${interactionUrl}/login`, { method: 'POST', body: new URLSearchParams({ login: 'nobody' }) });
  assert.equal(res.status, 400);
});

test('alice signs in with PKCE and client_secret_basic and gets a signed ID token with her email', async () => {
  const { tokens, nonce } = await signIn('alice');
  const { claims } = await verifyIdToken(tokens.id_token);
  assert.equal(claims.iss, issuer);
  assert.equal(claims.aud, CLIENT.id);
  assert.equal(claims.nonce, nonce);
  assert.equal(claims.sub, 'alice');
  assert.equal(claims.email, 'alice@example.com');
  assert.equal(claims.email_verified, true);
  assert.equal(claims.name, 'Alice Analyst');
  assert.equal(claims.preferred_username, 'alice');
  assert.ok(tokens.refresh_token, 'a refresh token without asking for offline_access');

  const userinfo = await getJson(discovery.userinfo_endpoint, { authorization: `Bearer ${tokens.access_token}` });
  assert.equal(userinfo.email, 'alice@example.com');
});

test('mallory signs in with client_secret_post and her email is unverified', async () => {
  const { tokens } = await signIn('mallory', { auth: 'post' });
  const { claims } = await verifyIdToken(tokens.id_token);
  assert.equal(claims.email, 'mallory@other.example');
  assert.equal(claims.email_verified, false);
});

test('after a key rotation ID tokens carry the new kid, and the old key stays until dropped', async () => {
  const { kids: [oldKid] } = await getJson(`${issuer}/__test/health`);
  const rotated = await postJson(`${issuer}/__test/rotate-keys`);
  assert.notEqual(rotated.kid, oldKid);

  const { tokens } = await signIn('alice');
  const { header } = await verifyIdToken(tokens.id_token);
  assert.equal(header.kid, rotated.kid);
  assert.deepEqual((await getJson(discovery.jwks_uri)).keys.map((k) => k.kid), [rotated.kid, oldKid]);

  const dropped = await postJson(`${issuer}/__test/rotate-keys?drop_old=1`);
  assert.deepEqual((await getJson(discovery.jwks_uri)).keys.map((k) => k.kid), [dropped.kid]);
});

test('revoking alice makes her refresh token fail', async () => {
  const { tokens } = await signIn('alice');
  const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
  assert.equal(refreshed.status, 200, 'refreshing works before the revocation');

  const revoked = await postJson(`${issuer}/__test/revoke?sub=alice`);
  assert.ok(revoked.grants > 0 && revoked.sessions > 0);

  const refresh = refreshed.body.refresh_token ?? tokens.refresh_token;
  const rejected = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refresh });
  assert.equal(rejected.status, 400);
  assert.equal(rejected.body.error, 'invalid_grant');
});

/** Returns the authorization URL for the client, with PKCE when `challenge` is given. */
function authorizationUrl({ state, nonce, challenge = 'x'.repeat(43) }) {
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT.id,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: CLIENT.redirectUri,
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return url;
}

/** Step 1: GET the authorization URL; the provider answers 303 to its interaction page. */
async function startAuthorization() {
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const res = await jar.fetch(authorizationUrl({ state, nonce, challenge }));
  assert.equal(res.status, 303);
  const interactionUrl = res.headers.get('location');
  assert.match(interactionUrl, new RegExp(`^${issuer}/interaction/[\\w-]+$`));
  return { jar, interactionUrl, verifier, state, nonce };
}

/** The whole flow, with no page shown: returns the token response and the nonce sent. */
async function signIn(login, { auth = 'basic' } = {}) {
  const { jar, interactionUrl, verifier, state, nonce } = await startAuthorization();
  // Step 2: POST the login; 303 back to the authorization endpoint's resume URL.
  const loggedIn = await jar.fetch(`${interactionUrl}/login`, { method: 'POST', body: new URLSearchParams({ login }) });
  assert.equal(loggedIn.status, 303);
  // Step 3: GET the resume URL; 303 to the client's redirect URI with code, state and iss.
  const done = await jar.fetch(loggedIn.headers.get('location'));
  assert.equal(done.status, 303);
  const callback = new URL(done.headers.get('location'));
  assert.equal(`${callback.origin}${callback.pathname}`, CLIENT.redirectUri);
  assert.equal(callback.searchParams.get('state'), state);
  assert.equal(callback.searchParams.get('iss'), issuer);
  // Step 4: exchange the code with the PKCE verifier.
  const { status, body } = await tokenRequest(
    { grant_type: 'authorization_code', code: callback.searchParams.get('code'), redirect_uri: CLIENT.redirectUri, code_verifier: verifier },
    auth,
  );
  assert.equal(status, 200, JSON.stringify(body));
  return { tokens: body, nonce };
}

/** POSTs to the token endpoint as the client, authenticating with HTTP Basic or form fields. */
async function tokenRequest(params, auth = 'basic') {
  const body = new URLSearchParams(params);
  const headers = {};
  if (auth === 'basic') {
    const credentials = `${encodeURIComponent(CLIENT.id)}:${encodeURIComponent(CLIENT.secret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  } else {
    body.set('client_id', CLIENT.id);
    body.set('client_secret', CLIENT.secret);
  }
  const res = await fetch(discovery.token_endpoint, { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

/** Checks the ID token's signature against the published JWKS; returns its header and claims. */
async function verifyIdToken(idToken) {
  const jwks = await getJson(discovery.jwks_uri);
  if (jose) {
    const { protectedHeader, payload } = await jose.jwtVerify(idToken, jose.createLocalJWKSet(jwks), {
      issuer,
      audience: CLIENT.id,
      algorithms: ['RS256'],
    });
    return { header: protectedHeader, claims: payload };
  }
  const [header, payload, signature] = idToken.split('.');
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url'));
  assert.equal(alg, 'RS256');
  const jwk = jwks.keys.find((k) => k.kid === kid);
  assert.ok(jwk, `the JWKS lists kid ${kid}`);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  assert.ok(verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')), 'signature');
  return { header: { kid, alg }, claims: JSON.parse(Buffer.from(payload, 'base64url')) };
}

async function getJson(url, headers = {}) {
  const res = await fetch(url, { headers });
  assert.equal(res.status, 200, `GET ${url}`);
  return res.json();
}

async function postJson(url) {
  const res = await fetch(url, { method: 'POST' });
  assert.equal(res.status, 200, `POST ${url}`);
  return res.json();
}

/** Follows no redirects and keeps cookies, sending each only under its Path, as a browser would. */
class CookieJar {
  #cookies = new Map(); // name → { value, path }

  async fetch(url, init = {}) {
    const { pathname } = new URL(url);
    const cookie = [...this.#cookies]
      .filter(([, c]) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, ...(cookie && { cookie }) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expires = attributes.find((a) => /^expires=/i.test(a))?.slice('expires='.length);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice('path='.length) ?? '/';
      if (!value || (expires && Date.parse(expires) <= Date.now())) this.#cookies.delete(name);
      else this.#cookies.set(name, { value, path });
    }
    return res;
  }
}
