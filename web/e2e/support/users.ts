import { randomBytes } from 'node:crypto';

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

/** Returns a user no other test uses: each test signs up its own. */
export function uniqueUser(): TestUser {
  const suffix = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return { username: `e2e_${suffix}`, email: `e2e.${suffix}@example.com`, password: 'correct-horse-battery' };
}
