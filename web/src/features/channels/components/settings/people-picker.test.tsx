import { screen } from '@testing-library/react';
import { json, renderWithProviders, stubApi } from '../../../../test/render';
import { PeoplePicker } from './people-picker';

describe('PeoplePicker', () => {
  it('offers people whose email the server keeps hidden, by name alone', async () => {
    stubApi({
      'GET /api/channels/c1/users/all?limit=20': () =>
        json(200, {
          results: [
            { user_id: 'u2', username: 'bob', email: 'bob@x.com', role: null },
            { user_id: 'u3', username: 'olga', email: null, role: null },
          ],
        }),
      'GET /api/user': () => json(200, { id: 'u1', email_id: 'ann@x.com', username: 'ann' }),
    });
    renderWithProviders(<PeoplePicker channelId="c1" chosen={[]} onChange={() => {}} />, { route: '/settings' });
    expect(await screen.findByRole('checkbox', { name: 'bob bob@x.com' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'olga' })).toBeEnabled();
  });
});
