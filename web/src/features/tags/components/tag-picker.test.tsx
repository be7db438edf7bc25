import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { Tag } from '../api/tag-api';
import { TagPicker } from './tag-picker';

const macro = { id: 't1', name: 'Macro' };
const rates = { id: 't2', name: 'Rates' };
const risk = { id: 't3', name: 'Risk' };

/** A card whose tags someone else changes while the picker is open. */
function Card() {
  const [current, setCurrent] = useState<Tag[]>([macro]);
  return (
    <>
      <button type="button" onClick={() => setCurrent([macro, rates])}>
        someone tags it Rates
      </button>
      <TagPicker deeplink="d1" subject="Doc" current={current} />
    </>
  );
}

describe('TagPicker', () => {
  it('sends the tags shown when it opened as the base, whatever arrives meanwhile', async () => {
    const calls = stubApi({
      'GET /api/tag/user-tags': () => json(200, { results: [macro, rates, risk] }),
      'POST /api/tag/d1': () => json(200, { results: { user_tags: [rates, risk], shared_tags: [], bookmarked: false } }),
    });
    renderWithProviders(<Card />, { route: '/feeds/home' });
    await userEvent.click(screen.getByRole('button', { name: 'Tags of Doc' }));
    const picker = screen.getByRole('dialog', { name: 'Tags of Doc' });
    await userEvent.click(await within(picker).findByRole('checkbox', { name: 'Risk' }));
    fireEvent.click(screen.getByRole('button', { name: 'someone tags it Rates' }));
    await userEvent.click(within(picker).getByRole('checkbox', { name: 'Macro' }));
    await userEvent.click(within(picker).getByRole('button', { name: 'Done' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Risk added and Macro taken off by this user; Rates, put on elsewhere, is not in the base,
    // so the server keeps it.
    expect(calls.find((c) => c.key === 'POST /api/tag/d1')?.body).toMatchObject({ tags: ['t3'], base: ['t1'] });
  });

  it('stays disabled until the document’s tags are known', () => {
    stubApi({});
    renderWithProviders(<TagPicker deeplink="d1" subject="Doc" current={undefined} />, { route: '/feeds/home' });
    expect(screen.getByRole('button', { name: 'Tags of Doc' })).toBeDisabled();
  });
});
