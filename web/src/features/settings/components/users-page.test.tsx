import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../../../lib/session-store';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { AdminUser } from '../api/account-api';
import { UsersPage } from './users-page';

const ADA: AdminUser = {
  id: 'u-ada',
  email_id: 'ada@example.com',
  username: 'ada',
  is_admin: true,
  is_auditor: false,
  created_at: '2025-01-02T10:00:00Z',
  plan: 'free',
};
const BOB: AdminUser = { ...ADA, id: 'u-bob', email_id: 'bob@example.com', username: 'bob', is_admin: false };
const CY: AdminUser = { ...BOB, id: 'u-cy', email_id: 'cy@example.com', username: 'cy' };

/** Stubs the users list (what `users` holds when it is fetched) and the erase call. */
function stubUsers(users: AdminUser[], erase: (init: RequestInit) => Response | Promise<Response>) {
  return stubApi({
    'GET /api/admin/users': () => json(200, users),
    'DELETE /api/admin/users/u-bob': erase,
  });
}

const row = (name: string) => screen.getByRole('listitem', { name });

const openErase = async (name: string) => {
  await userEvent.click(within(await screen.findByRole('listitem', { name })).getByRole('button', { name: `Erase ${name}` }));
  return screen.getByRole('dialog', { name: `Erase ${name}'s account?` });
};

describe('users page', () => {
  beforeEach(() => sessionStore.signIn('tok', { id: 'u-ada', email_id: 'ada@example.com', username: 'ada', is_admin: true }));
  afterEach(() => sessionStore.signOut());

  it("offers Erase on every user's row but the administrator's own", async () => {
    stubUsers([ADA, BOB, CY], () => new Response(null, { status: 204 }));
    renderWithProviders(<UsersPage />, { route: '/settings/users' });
    expect(await screen.findByRole('listitem', { name: 'bob' })).toBeInTheDocument();
    expect(within(row('bob')).getByRole('button', { name: 'Erase bob' })).toBeInTheDocument();
    expect(within(row('cy')).getByRole('button', { name: 'Erase cy' })).toBeInTheDocument();
    expect(within(row('ada')).queryByRole('button', { name: /^Erase/ })).not.toBeInTheDocument();
    expect(within(row('ada')).getByText('(you)')).toBeInTheDocument();
  });

  it('names the user, erases them, and closes once the refreshed list no longer has them', async () => {
    const users = [ADA, BOB, CY];
    let answer: (response: Response) => void = () => {};
    const calls = stubUsers(users, () => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<UsersPage />, { route: '/settings/users' });
    const dialog = await openErase('bob');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase account' }));
    expect(within(dialog).getByRole('button', { name: 'Erasing…' })).toBeDisabled();

    users.splice(users.indexOf(BOB), 1);
    answer(new Response(null, { status: 204 }));
    expect(await screen.findByText("bob's account was erased.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('listitem', { name: 'bob' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users' })).toHaveFocus();
    expect(calls.filter((c) => c.key === 'DELETE /api/admin/users/u-bob')).toHaveLength(1);
    expect(calls.filter((c) => c.key === 'GET /api/admin/users')).toHaveLength(2);
  });

  it('says so in the dialog when the user was already erased, and refreshes the list', async () => {
    const users = [ADA, BOB];
    stubUsers(users, () => {
      users.splice(users.indexOf(BOB), 1);
      return json(404, { code: 'not_found', message: 'user not found' });
    });
    renderWithProviders(<UsersPage />, { route: '/settings/users' });
    const dialog = await openErase('bob');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('bob is no longer on this server');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'bob' })).not.toBeInTheDocument());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the dialog open with words of its own when the server fails, with no toast; Escape closes it', async () => {
    stubUsers([ADA, BOB], () => json(500, { code: 'internal', message: 'internal error' }));
    renderWithProviders(<UsersPage />, { route: '/settings/users' });
    const dialog = await openErase('bob');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "bob's account could not be erased just now. Try again in a moment.",
    );
    expect(screen.queryByText('Oops! Something Went Wrong. Please Try Again Later :(')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Erase account' })).toBeEnabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(row('bob')).toBeInTheDocument();
  });

  describe('plans', () => {
    const PLANS = {
      default_plan: 'free',
      plans: [
        { id: 'free', name: 'Free', description: '', features: [], limits: { feeds: 2, enabled_feeds: 2, notebooks: 3, storage_bytes: 1 } },
        { id: 'pro', name: 'Professional', description: '', features: [], limits: { feeds: 25, enabled_feeds: 25, notebooks: null, storage_bytes: 1 } },
        { id: 'enterprise', name: 'Enterprise', description: '', features: [], limits: { feeds: null, enabled_feeds: null, notebooks: null, storage_bytes: null } },
      ],
    };

    it("shows each user's plan and puts bob on another, waiting while it saves, with a toast", async () => {
      const users = [ADA, BOB];
      let answer: (response: Response) => void = () => {};
      const calls = stubApi({
        'GET /api/admin/users': () => json(200, users),
        'GET /api/plans': () => json(200, PLANS),
        'PUT /api/admin/users/u-bob/plan': () => new Promise<Response>((resolve) => (answer = resolve)),
      });
      renderWithProviders(<UsersPage />, { route: '/settings/users' });
      const select = await screen.findByRole('combobox', { name: 'Plan for bob' });
      await within(select).findByRole('option', { name: 'Professional' });
      expect(select).toHaveValue('free');
      await userEvent.selectOptions(select, 'pro');
      expect(select).toBeDisabled();
      expect(select).toHaveValue('pro');
      expect(calls.find((c) => c.key === 'PUT /api/admin/users/u-bob/plan')?.body).toEqual({ plan: 'pro' });

      users.splice(1, 1, { ...BOB, plan: 'pro' });
      answer(new Response(null, { status: 204 }));
      expect(await screen.findByText('bob is now on the Professional plan.')).toBeInTheDocument();
      await waitFor(() => expect(select).toBeEnabled());
      expect(select).toHaveValue('pro');
    });

    it('says so in a toast when the server refuses, and keeps the plan bob had', async () => {
      stubApi({
        'GET /api/admin/users': () => json(200, [ADA, BOB]),
        'GET /api/plans': () => json(200, PLANS),
        'PUT /api/admin/users/u-bob/plan': () => json(400, { code: 'unknown_plan', message: 'there is no plan gold' }),
      });
      renderWithProviders(<UsersPage />, { route: '/settings/users' });
      const select = await screen.findByRole('combobox', { name: 'Plan for bob' });
      await within(select).findByRole('option', { name: 'Enterprise' });
      await userEvent.selectOptions(select, 'enterprise');
      expect(await screen.findByRole('alert')).toHaveTextContent('there is no plan gold');
      await waitFor(() => expect(select).toBeEnabled());
      expect(select).toHaveValue('free');
    });

    it('names the built-in plans while the list of plans cannot be had', async () => {
      stubApi({ 'GET /api/admin/users': () => json(200, [ADA, { ...BOB, plan: 'enterprise' }]) });
      renderWithProviders(<UsersPage />, { route: '/settings/users' });
      const select = await screen.findByRole('combobox', { name: 'Plan for bob' });
      expect(select).toHaveValue('enterprise');
      expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Free', 'Professional', 'Enterprise']);
    });
  });
});
