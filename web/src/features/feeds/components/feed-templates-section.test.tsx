import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore } from '../../../lib/session-store';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { board, summary } from '../test/fixtures';
import { FeedTemplatesSection } from './feed-templates-section';

const definition = (name: string) => board('x', name).definition;
const template = (id: string, name: string, kind: 'organization' | 'builtin') => ({
  id,
  name,
  description: '',
  kind,
  definition: definition(name),
});
const admin = { id: 'u1', email_id: 'ann@example.com', username: 'ann', is_admin: true };

afterEach(() => act(() => sessionStore.signOut()));

describe('templates for everyone', () => {
  it('is not shown to members', async () => {
    sessionStore.signIn('tok', { ...admin, is_admin: false });
    const calls = stubApi({});
    renderWithProviders(<FeedTemplatesSection />, { route: '/settings/feeds' });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('heading', { name: 'Templates for everyone' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('lists the instance’s own templates, reorders them, removes one and offers a feed, saving the whole list each time', async () => {
    sessionStore.signIn('tok', admin);
    const saved: Array<{ templates: Array<{ id?: string; definition: { name: string } }> }> = [];
    /** The ids and definition names of the list saved by the nth call. */
    const sent = (n: number) => saved[n].templates.map((t) => [t.id, t.definition.name]);
    const calls = stubApi({
      'GET /api/connect/getFeedTemplates': () =>
        json(200, {
          results: [template('t1', 'Steel', 'organization'), template('t2', 'Rates', 'organization'), template('topic-results', 'Results', 'builtin')],
        }),
      'GET /api/boards/v2': () => json(200, { results: [summary('b1', 'Credit watch')] }),
      'GET /api/boards/b1': () => json(200, { results: board('b1', 'Credit watch') }),
      'POST /api/connect/setFeedTemplates': (init) => {
        saved.push(JSON.parse(String(init.body)) as (typeof saved)[number]);
        return json(200, { results: [template('t2', 'Rates', 'organization'), template('t1', 'Steel', 'organization')] });
      },
    });
    renderWithProviders(<FeedTemplatesSection />, { route: '/settings/feeds' });
    const list = await screen.findByRole('list', { name: 'Templates for everyone' });
    // Built-in templates are not the administrator's to change.
    expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent)).toEqual(['Steel', 'Rates']);
    expect(within(list).getByRole('button', { name: 'Move Steel up' })).toBeDisabled();

    await userEvent.click(within(list).getByRole('button', { name: 'Move Rates up' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(sent(0)).toEqual([
      ['t2', 'Rates'],
      ['t1', 'Steel'],
    ]);
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent)).toEqual(['Rates', 'Steel']),
    );

    await userEvent.click(within(list).getByRole('button', { name: 'Stop offering Steel' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(sent(1)).toEqual([['t2', 'Rates']]);

    await userEvent.selectOptions(await screen.findByLabelText('Offer one of your feeds as a template'), 'b1');
    await userEvent.click(screen.getByRole('button', { name: 'Offer as template' }));
    await waitFor(() => expect(saved).toHaveLength(3));
    expect(sent(2)).toEqual([
      ['t2', 'Rates'],
      ['t1', 'Steel'],
      [undefined, 'Credit watch'],
    ]);
    expect(calls.some((c) => c.key === 'GET /api/boards/b1')).toBe(true);
  });
});
