/**
 * End-to-end tests against the real `needl` binary serving the built app (`npm run build` first).
 * NEEDL_BIN picks the binary, E2E_PORT the port, and DATABASE_URL (when set) is passed through so
 * the same suite runs on Postgres. A test OpenID Connect provider (e2e/oidc/provider.mjs) starts
 * first, on E2E_OIDC_PORT, and the server signs people in with it as "Example Corp"; a local SEC
 * EDGAR (testkit's `fake-edgar`) runs on E2E_EDGAR_PORT.
 */
import { defineConfig, devices } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 18080);
const bin = process.env.NEEDL_BIN ?? '../target/debug/needl';
const baseURL = `http://127.0.0.1:${port}`;
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 18090);
const oidcIssuer = `http://127.0.0.1:${oidcPort}`;
/**
 * The provider's accounts, 'sub:email:name': Alice is of the organisation's domain; Otto is not,
 * and has no account here, so his first sign-in is refused.
 */
/** A local SEC EDGAR (testkit's `fake-edgar`, built with the workspace) the server follows companies on. */
const edgarPort = Number(process.env.E2E_EDGAR_PORT ?? 18095);
const fakeEdgar = process.env.FAKE_EDGAR_BIN ?? bin.replace(/needl$/, 'fake-edgar');
const OIDC_USERS = ['alice:alice@example.com:Alice Analyst', 'otto:otto@elsewhere.example:Otto Outsider'];

if (!existsSync(new URL('./dist/index.html', import.meta.url))) {
  throw new Error('web/dist is missing: run `npm run build` before `npm run e2e`');
}

// Playwright loads this file in every worker; the env var keeps one data directory per run.
process.env.NEEDL_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'needl-e2e-'));
const dataDir = process.env.NEEDL_E2E_DATA_DIR;

export default defineConfig({
  testDir: './e2e',
  // e2e/oidc holds the test identity provider and its own `node --test` suite, not Playwright's.
  testIgnore: '**/e2e/oidc/**',
  fullyParallel: true,
  // One worker in CI: with two, a run on two cores saw an added feed's row appear after the 5 s
  // wait once (Postgres) and the accessibility walk run past three minutes; CI must not flake.
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // Signs the administrator up first, so it is the instance's first account (see e2e/admin.setup.ts).
    { name: 'setup', testMatch: /admin\.setup\.ts/ },
    {
      name: 'chromium',
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  // In order: the provider is up before the server that signs in with it.
  webServer: [
    {
      command: [
        'node e2e/oidc/provider.mjs',
        `--port ${oidcPort}`,
        `--redirect-uri ${baseURL}/api/auth/oidc/callback`,
        ...OIDC_USERS.map((user) => `--user '${user}'`),
      ].join(' '),
      url: `${oidcIssuer}/__test/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `${fakeEdgar} --port ${edgarPort}`,
      port: edgarPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `${bin} serve --port ${port} --data-dir ${dataDir} --web-dir dist`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        RUST_LOG: process.env.RUST_LOG ?? 'info',
        // Lets the server fetch feeds that tests serve on 127.0.0.1, every 2 s.
        NEEDL_FETCH_ALLOW: '127.0.0.1',
        NEEDL_FETCH_INTERVAL_SECONDS: '2',
        // Every spec signs its users up from 127.0.0.1: more than the default 20 an hour.
        NEEDL_SIGNUPS_PER_HOUR: '1000',
        // Sign-in with the organisation's identity provider: the test provider above, whose
        // client redirects to PUBLIC_URL/api/auth/oidc/callback (e2e/oidc-sign-in.spec.ts).
        NEEDL_PUBLIC_URL: baseURL,
        NEEDL_OIDC_ISSUER: oidcIssuer,
        NEEDL_OIDC_CLIENT_ID: 'needl',
        NEEDL_OIDC_CLIENT_SECRET: 'needl-secret',
        NEEDL_OIDC_LABEL: 'Example Corp',
        NEEDL_OIDC_DOMAINS: 'example.com',
        // SEC filings from the local EDGAR above, checked every 2 s.
        NEEDL_EDGAR_CONTACT: 'Needl e2e ops@example.com',
        NEEDL_EDGAR_URL: `http://127.0.0.1:${edgarPort}/`,
        NEEDL_EDGAR_POLL_SECONDS: '2',
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      },
    },
  ],
});
