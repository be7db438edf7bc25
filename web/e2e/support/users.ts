import { randomBytes } from 'node:crypto';

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

/** Returns a user no other test uses: each test signs up its own. */
export function uniqueUser(): TestUser {
  const suffix = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return { username: `e2e_${suffix}`, email: `e2e.${suffix}@example.com`, password: 'plum-kettle-orbit-97' };
}

/**
 * The instance's administrator: `admin.setup.ts` signs it up before any test, so it is the
 * first account (which is the administrator) and every other test user is a plain member.
 */
export const ADMIN: TestUser = {
  username: 'e2e_admin',
  email: 'e2e.admin@example.com',
  password: 'harbour-lantern-quietly-41',
};
