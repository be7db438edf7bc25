import { screen } from '@testing-library/react';
import { sessionStore, type SessionUser } from '../../../lib/session-store';
import { renderWithProviders } from '../../../test/render';
import { SettingsNav } from './settings-nav';

const user: SessionUser = { id: 'u1', email_id: 'u@example.com', username: 'u', is_admin: false };

describe('the settings tabs', () => {
  it.each([
    ['an administrator', { ...user, is_admin: true }, true],
    ['an auditor', { ...user, is_auditor: true }, true],
    ['a member', user, false],
  ])('lead %s to the audit log: %s', (_, who, shown) => {
    sessionStore.signIn('tok', who);
    renderWithProviders(<SettingsNav />, { route: '/settings/storage' });
    expect(screen.queryAllByRole('link', { name: 'Audit log' })).toHaveLength(shown ? 1 : 0);
    if (shown) expect(screen.getByRole('link', { name: 'Audit log' })).toHaveAttribute('href', '/settings/audit');
  });

  it('leads everyone to their plan', () => {
    sessionStore.signIn('tok', user);
    renderWithProviders(<SettingsNav />, { route: '/settings/storage' });
    expect(screen.getByRole('link', { name: 'Plan' })).toHaveAttribute('href', '/settings/plan');
  });

  it.each([
    ['an administrator', { ...user, is_admin: true }, true],
    ['a member', user, false],
  ])('lead %s to the outbox: %s', (_, who, shown) => {
    sessionStore.signIn('tok', who);
    renderWithProviders(<SettingsNav />, { route: '/settings/storage' });
    expect(screen.queryAllByRole('link', { name: 'Outbox' })).toHaveLength(shown ? 1 : 0);
    if (shown) expect(screen.getByRole('link', { name: 'Outbox' })).toHaveAttribute('href', '/settings/outbox');
  });
});
