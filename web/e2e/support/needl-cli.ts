import { execFileSync } from 'node:child_process';

/**
 * Runs the `needl` binary's operator commands against the server's storage (the data directory
 * playwright.config.ts made for this run, or DATABASE_URL on Postgres).
 */
export function needl(...args: string[]): string {
  const bin = process.env.NEEDL_BIN ?? '../target/debug/needl';
  const dataDir = process.env.NEEDL_E2E_DATA_DIR;
  if (!dataDir) throw new Error('NEEDL_E2E_DATA_DIR is not set: run through playwright.config.ts');
  return execFileSync(bin, args, { env: { ...process.env, NEEDL_DATA_DIR: dataDir }, encoding: 'utf8' });
}

/** Makes `email` an administrator (the first sign-up of the instance is one; tests share it). */
export const grantAdmin = (email: string) => needl('roles', 'grant', email, 'admin');
