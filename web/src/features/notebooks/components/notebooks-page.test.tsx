import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { note, notebook, notePreview } from '../test/fixtures';
import { NotebooksPage } from './notebooks-page';

const detail = (id: string, name: string, notes: ReturnType<typeof notePreview>[] = []) =>
  json(200, { results: { ...notebook(id, name, notes.length), notes } });

describe('NotebooksPage', () => {
  it("asks for a notebook when there is none, and refuses a blank name with the spec's words", async () => {
    const calls = stubApi({ 'GET /api/notebook/list': () => json(200, { results: [] }) });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    expect(await screen.findByTestId('notebooks-empty')).toHaveTextContent('Please create a Notebook');

    await userEvent.type(screen.getByLabelText('New notebook'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('New notebook')).toHaveAccessibleDescription('Please create a Notebook');
    expect(calls.filter((c) => c.key === 'PUT /api/notebook')).toHaveLength(0);
  });

  it('shows a new notebook at once, then opens it once the server has it', async () => {
    let answer!: (response: Response) => void;
    const calls = stubApi({
      'GET /api/notebook/list': () => json(200, { results: [] }),
      'PUT /api/notebook': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/notebook/b9': () => detail('b9', 'Research'),
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    await userEvent.type(await screen.findByLabelText('New notebook'), '  Research ');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    const shelf = await screen.findByRole('list', { name: 'Your notebooks' });
    expect(within(shelf).getByText('Research')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/notebook')?.body).toEqual({ name: 'Research' });
    // Until the server names it, the new notebook is neither opened nor asked for by its stand-in id.
    expect(screen.queryByRole('heading', { level: 2, name: 'Research' })).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.key.includes('pending-'))).toEqual([]);

    answer(json(200, { results: { notebookId: 'b9', notebook: notebook('b9', 'Research') } }));
    expect(await screen.findByRole('heading', { name: 'Research', level: 2 })).toBeInTheDocument();
    expect(screen.getByLabelText('New notebook')).toHaveValue('');
    expect(calls.filter((c) => c.key.includes('pending-'))).toEqual([]);
  });

  it("shows the server's words for a name in use, and takes the notebook back out", async () => {
    stubApi({
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research')] }),
      'GET /api/notebook/b1': () => detail('b1', 'Research'),
      'PUT /api/notebook': () => json(409, { code: 'notebook_name_taken', message: 'you already have a notebook named Research' }),
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    await userEvent.type(await screen.findByLabelText('New notebook'), 'research');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(screen.getByLabelText('New notebook')).toHaveAccessibleDescription('you already have a notebook named Research'),
    );
    expect(within(screen.getByRole('list', { name: 'Your notebooks' })).getAllByTestId('notebook-item')).toHaveLength(1);
  });

  it("lists the open notebook's notes newest first, with previews and a snippet's source", async () => {
    stubApi({
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research', 2)] }),
      'GET /api/notebook/b1': () =>
        detail('b1', 'Research', [
          notePreview('n2', 'Rates held', {
            kind: 'snippet',
            preview: 'The bank held rates.',
            snippet: { deeplink: 'd1', source: 'rss_1', title: 'Rates held', link: '/preview/feeds/d1?source=rss_1' },
          }),
          notePreview('n1', '', { preview: 'First thoughts' }),
        ]),
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    const list = await screen.findByRole('list', { name: 'Notes' });
    const items = within(list).getAllByTestId('note-item');
    expect(items.map((item) => within(item).getAllByRole('button')[0].textContent)).toEqual([
      expect.stringMatching(/^Rates held/),
      expect.stringMatching(/^Untitled note/),
    ]);
    expect(within(items[0]).getByText('The bank held rates.')).toBeInTheDocument();
    expect(within(items[0]).getByTestId('snippet-source')).toHaveTextContent('Source: Rates held');
    expect(within(items[0]).getByRole('link', { name: 'Rates held' })).toHaveAttribute('href', '/preview/feeds/d1?source=rss_1');
    expect(within(items[1]).getByRole('link', { name: /Preview/ })).toHaveAttribute('href', '/preview/needl_notebooks/n1');
  });

  it('renames a notebook in place and deletes one after asking', async () => {
    let name = 'Research';
    let shelf = [notebook('b1', name, 3)];
    const calls = stubApi({
      'GET /api/notebook/list': () => json(200, { results: shelf }),
      'GET /api/notebook/b1': () => detail('b1', name),
      'PUT /api/notebook/b1': (init) => {
        name = JSON.parse(String(init.body)).name;
        shelf = [notebook('b1', name, 3)];
        return json(200, { results: shelf[0] });
      },
      'DELETE /api/notebook/b1': () => {
        shelf = [];
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Research' }));
    const field = screen.getByLabelText('Rename Research');
    await userEvent.clear(field);
    await userEvent.type(field, 'Markets{Enter}');
    expect(await screen.findByRole('button', { name: 'Rename Markets' })).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/notebook/b1')?.body).toEqual({ name: 'Markets' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Markets' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this notebook?' });
    expect(dialog).toHaveTextContent('“Markets” and its 3 notes will be deleted.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('notebooks-empty')).toHaveTextContent('Please create a Notebook');
  });

  it('offers reading only when the notebooks flag is off (the server refuses writes then)', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: { notebooks: false } }),
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research', 1)] }),
      'GET /api/notebook/b1': () => detail('b1', 'Research', [notePreview('n1', 'Q4 plan')]),
      'GET /api/note/n1': () => json(200, { results: note('n1', 'Q4 plan') }),
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks?notebook=b1&note=n1' });
    expect(await screen.findByRole('note')).toHaveTextContent('Notebooks are turned off for you');
    expect(await screen.findByRole('heading', { name: 'Plan for Q4' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New notebook')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New note' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Research' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Note title' })).not.toBeInTheDocument();
  });

  it('opens a new note for writing', async () => {
    const calls = stubApi({
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research')] }),
      'GET /api/notebook/b1': () => detail('b1', 'Research'),
      'PUT /api/note/create/b1': () => json(200, { results: note('n5', '', { body: { type: 'doc', content: [{ type: 'paragraph' }] } }) }),
      'GET /api/note/n5': () => json(200, { results: note('n5', '', { body: { type: 'doc', content: [{ type: 'paragraph' }] } }) }),
    });
    renderWithProviders(<NotebooksPage />, { route: '/notebooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'New note' }));
    expect(await screen.findByRole('textbox', { name: 'Note title' })).toHaveValue('');
    expect(screen.getByRole('toolbar', { name: 'Formatting' })).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/note/create/b1')?.body).toEqual({
      name: '',
      body: { type: 'doc', content: [{ type: 'paragraph' }] },
    });
  });
});
