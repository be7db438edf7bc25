import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import { GROUP_NAME_INVALID, GROUP_NAME_REQUIRED, GROUP_NAME_TAKEN } from '../../messages';
import { CreateGroupForm } from './create-group-form';

const people = () =>
  json(200, { results: [{ user_id: 'u2', username: 'bob', email: 'bob@x.com', role: null }] });

const organization = (canPublishChannels: boolean) =>
  json(200, { id: '5', name: 'Acme', domain: 'acme.com', permissions: { canPublishChannels } });

const renderForm = () => renderWithProviders(<CreateGroupForm />, { route: '/settings/channels/create%20group' });

describe('creating a group', () => {
  it('checks the name with the spec’s words before asking the server', async () => {
    const calls = stubApi({
      'GET /api/organizations/self': () => organization(false),
      'GET /api/channels/create%20group/users/all?limit=20': people,
    });
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText(GROUP_NAME_REQUIRED)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Group Name' }), 'desk!');
    expect(screen.getByText(GROUP_NAME_INVALID)).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'POST /api/channels')).toBe(false);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('sends the name, publishing and first members, and shows the server’s refusal as it says it', async () => {
    const calls = stubApi({
      'GET /api/organizations/self': () => organization(true),
      'GET /api/channels/create%20group/users/all?limit=20': people,
      'POST /api/channels': () => json(409, { code: 'channel_name_taken', message: GROUP_NAME_TAKEN }),
    });
    renderForm();
    await userEvent.type(screen.getByRole('textbox', { name: 'Group Name' }), '  Credit   desk ');
    await userEvent.click(await screen.findByRole('switch', { name: 'Publish to acme.com' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: /bob/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText(GROUP_NAME_TAKEN)).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /api/channels')?.body).toEqual({ name: 'Credit desk', publish: true, members: ['u2'] }),
    );
  });
});
