import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubApi } from '../../../test/render';
import { SignUpPage } from './sign-up-page';

describe('sign-up page', () => {
  it('requires a password of at least 8 characters', async () => {
    const calls = stubApi({});
    renderWithProviders(<SignUpPage />, { route: '/auth/platform-access' });
    await userEvent.type(screen.getByLabelText('Username'), 'ann');
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
