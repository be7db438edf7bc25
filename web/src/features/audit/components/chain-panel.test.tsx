import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { chainStatus } from '../test/fixtures';
import { ChainPanel } from './chain-panel';

const CHECKPOINT = {
  position: 40,
  hash: 'ffeeddccbbaa99887766554433221100',
  created_at: '2025-01-03T09:00:00Z',
  signature: 'c2lnbmF0dXJlLW9mLXRoZS1jaGVja3BvaW50',
  public_key: 'pk-1',
};

describe('the chain panel', () => {
  it('shows an intact chain with how many events were checked and the head’s short hash', async () => {
    stubApi({ 'GET /api/audit/chain': () => json(200, chainStatus()) });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    expect(await screen.findByText('Intact')).toHaveAttribute('data-status', 'intact');
    expect(screen.getByText(/42 events checked, verified/)).toBeInTheDocument();
    expect(screen.getByText('a1b2c3d4e5f6…')).toHaveAttribute('title', 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(screen.getByRole('button', { name: 'Copy the head hash' })).toBeInTheDocument();
    expect(screen.getByText(/No checkpoints yet/)).toBeInTheDocument();
  });

  it('says where a broken chain breaks and why', async () => {
    stubApi({
      'GET /api/audit/chain': () =>
        json(200, chainStatus({ status: 'broken', first_break: { position: 17, reason: 'hash mismatch' } })),
    });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    expect(await screen.findByText('Broken')).toHaveAttribute('data-status', 'broken');
    expect(screen.getByRole('alert')).toHaveTextContent('The chain breaks at position 17: hash mismatch.');
  });

  it('says an empty chain has nothing to check', async () => {
    stubApi({ 'GET /api/audit/chain': () => json(200, chainStatus({ status: 'empty', events_checked: 0, head: null })) });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    expect(await screen.findByText('Empty')).toBeInTheDocument();
    expect(screen.getByText(/No events yet, so nothing to check/)).toBeInTheDocument();
  });

  it('verifies again on demand and shows the new answer', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/audit/chain': () => json(200, chainStatus()),
      'POST /api/audit/chain/verify': () => json(200, chainStatus({ events_checked: 43 })),
    });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    await user.click(await screen.findByRole('button', { name: 'Verify now' }));
    expect(await screen.findByText(/43 events checked/)).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('POST /api/audit/chain/verify');
  });

  it('creates a checkpoint and lists it with its hash and signature shortened, each with a copy button', async () => {
    const user = userEvent.setup();
    let made = false;
    stubApi({
      'GET /api/audit/chain': () => json(200, chainStatus({ checkpoints: made ? [CHECKPOINT] : [] })),
      'POST /api/audit/checkpoints': () => {
        made = true;
        return json(200, CHECKPOINT);
      },
    });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    await user.click(await screen.findByRole('button', { name: 'Create checkpoint' }));
    expect(await screen.findByText('Checkpoint created at position 40.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Recent checkpoints' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent('40');
    expect(within(row).getByText('ffeeddccbbaa…')).toHaveAttribute('title', CHECKPOINT.hash);
    expect(within(row).getByText('c2lnbmF0dXJl…')).toHaveAttribute('title', 'Signed with key pk-1');
    expect(within(row).getByRole('button', { name: 'Copy the hash at position 40' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Copy the signature at position 40' })).toBeInTheDocument();
  });

  it('copies a hash and says so', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    stubApi({ 'GET /api/audit/chain': () => json(200, chainStatus()) });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    await user.click(await screen.findByRole('button', { name: 'Copy the head hash' }));
    expect(writeText).toHaveBeenCalledWith('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(await screen.findByText('Copied')).toBeInTheDocument();
  });

  it('says when a checkpoint cannot be made, in the server’s words', async () => {
    const user = userEvent.setup();
    stubApi({
      'GET /api/audit/chain': () => json(200, chainStatus()),
      'POST /api/audit/checkpoints': () => json(409, { code: 'no_signing_key', message: 'no signing key is configured' }),
    });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    await user.click(await screen.findByRole('button', { name: 'Create checkpoint' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('The checkpoint could not be created. no signing key is configured'),
    );
  });

  it('says when the status cannot be loaded, with Try again', async () => {
    stubApi({ 'GET /api/audit/chain': () => json(403, { code: 'forbidden', message: 'only administrators and auditors may read the audit log' }) });
    renderWithProviders(<ChainPanel />, { route: '/settings/audit' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Only administrators and auditors may read the audit log.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
