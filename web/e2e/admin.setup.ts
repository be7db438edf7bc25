import { expect, test as setup } from '@playwright/test';
import { ADMIN } from './support/users';

/**
 * Signs the administrator up before every other test (the first account of an instance is its
 * administrator), so tests that need one can sign in as `ADMIN` and no test user is one by chance.
 */
setup('the instance has its administrator', async ({ request }) => {
  const signUp = await request.post('/api/auth/signup', { data: ADMIN });
  const answer = signUp.ok()
    ? await signUp.json()
    : await (await request.post('/api/auth/signin', { data: { email: ADMIN.email, password: ADMIN.password } })).json();
  expect(answer.user?.is_admin, 'the e2e administrator must be the first account of a fresh server').toBe(true);
});
