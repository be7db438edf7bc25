import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { PLEASE_CREATE_TAG } from '../messages';
import { TagsManager } from './tags-manager';

const stub = (routes: Parameters<typeof stubApi>[0] = {}) => {
  let tags = [
    { id: 't1', name: 'Macro' },
    { id: 't2', name: 'Risk' },
  ];
  const calls = stubApi({
    'GET /api/tag/user-tags': () => json(200, { results: tags }),
    'PUT /api/tag/t2': (init) => {
      const { name } = JSON.parse(String(init.body)) as { name: string };
      if (name === 'Macro') return json(409, { code: 'tag_name_taken', message: 'you already have a tag named Macro' });
      tags = tags.map((t) => (t.id === 't2' ? { ...t, name } : t));
      return json(200, { results: { id: 't2', name } });
    },
    'POST /api/tag/delete': () => {
      tags = tags.filter((t) => t.id !== 't1');
      return new Response(null, { status: 204 });
    },
    ...routes,
  });
  return calls;
};

describe('TagsManager', () => {
  it('renames a tag inline, refusing a blank name and showing the server’s refusal', async () => {
    const calls = stub();
    renderWithProviders(<TagsManager />, { route: '/settings/manage-tags' });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Risk' }));
    const input = screen.getByRole('textbox', { name: 'New name for Risk' });
    expect(input).toHaveFocus();

    await userEvent.clear(input);
    await userEvent.type(input, '  {Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(PLEASE_CREATE_TAG);

    await userEvent.clear(input);
    await userEvent.type(input, 'Macro{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('you already have a tag named Macro');

    await userEvent.clear(input);
    await userEvent.type(input, 'Credit risk{Enter}');
    expect(await screen.findByRole('link', { name: 'Credit risk' })).toHaveAttribute('href', '/needlbox/tags/all?tag_id=t2');
    expect(calls.filter((c) => c.key === 'PUT /api/tag/t2').map((c) => c.body)).toEqual([{ name: 'Macro' }, { name: 'Credit risk' }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Rename Credit risk' })).toHaveFocus());
  });

  it('cancels a rename with Escape', async () => {
    const calls = stub();
    renderWithProviders(<TagsManager />, { route: '/settings/manage-tags' });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Risk' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'New name for Risk' }), 'x{Escape}');
    expect(screen.getByRole('link', { name: 'Risk' })).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('PUT'))).toBe(false);
  });

  it('deletes a tag after a confirmation', async () => {
    const calls = stub();
    renderWithProviders(<TagsManager />, { route: '/settings/manage-tags' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Macro' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the tag “Macro”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Macro' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/tag/delete')?.body).toEqual({ tag_ids: ['t1'] });
  });

  it('shows why a delete failed in the confirmation', async () => {
    stub({ 'POST /api/tag/delete': () => json(404, { code: 'tag_not_found', message: 'tag not found' }) });
    renderWithProviders(<TagsManager />, { route: '/settings/manage-tags' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Macro' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('tag not found');
  });

  it('says how to make tags when there are none', async () => {
    stubApi({ 'GET /api/tag/user-tags': () => json(200, { results: [] }) });
    renderWithProviders(<TagsManager />, { route: '/settings/manage-tags' });
    expect(await screen.findByRole('heading', { name: 'No tags yet' })).toBeInTheDocument();
  });
});
