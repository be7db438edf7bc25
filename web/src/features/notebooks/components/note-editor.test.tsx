import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { stubEditorLayout } from '../test/editor-layout';
import { note } from '../test/fixtures';
import { NotePane } from './note-pane';

const stale = () =>
  json(409, {
    code: 'note_version_stale',
    message: 'this note was changed elsewhere since you opened it (it is now at version 2); reload it and make your edit again',
  });

const saveStatus = () => screen.getByTestId('save-status');

beforeAll(stubEditorLayout);

describe('NoteEditor', () => {
  it('shows the body as written: a heading and a list', async () => {
    stubApi({ 'GET /api/note/n1': () => json(200, { results: note('n1', 'Q4 plan') }) });
    renderWithProviders(<NotePane noteId="n1" onClosed={() => {}} />, { route: '/notebooks' });
    const editor = await screen.findByTestId('note-editor');
    expect(within(editor).getByRole('heading', { name: 'Plan for Q4', level: 2 })).toBeInTheDocument();
    expect(within(editor).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['hire two', 'ship notes']);
    expect(within(editor).getByRole('button', { name: 'Bullet list' })).toBeInTheDocument();
  });

  it('saves a second after typing stops, with the version it showed, and says Saved', async () => {
    const calls = stubApi({
      'GET /api/note/n1': () => json(200, { results: note('n1', 'Q4 plan') }),
      'PUT /api/note/n1': (init) => {
        const { name, body } = JSON.parse(String(init.body));
        return json(200, { results: note('n1', name, { body, version: 2 }) });
      },
    });
    renderWithProviders(<NotePane noteId="n1" onClosed={() => {}} />, { route: '/notebooks' });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Note title' }), ' draft');
    expect(saveStatus()).toHaveTextContent('Saving…');
    await waitFor(() => expect(saveStatus()).toHaveTextContent('Saved'), { timeout: 3000 });
    const saves = calls.filter((c) => c.key === 'PUT /api/note/n1');
    expect(saves).toHaveLength(1);
    expect(saves[0].body).toMatchObject({ version: 1, name: 'Q4 plan draft', body: { type: 'doc' } });
  });

  it('reports a conflict instead of overwriting, and reloads the latest on request', async () => {
    let current = note('n1', 'Q4 plan');
    const calls = stubApi({
      'GET /api/note/n1': () => json(200, { results: current }),
      'PUT /api/note/n1': stale,
    });
    renderWithProviders(<NotePane noteId="n1" onClosed={() => {}} />, { route: '/notebooks' });
    const title = await screen.findByRole('textbox', { name: 'Note title' });
    current = note('n1', 'Their title', {
      version: 2,
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'their words' }] }] },
    });
    await userEvent.type(title, ' mine');
    await userEvent.tab();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('changed somewhere else after you opened it');
    expect(saveStatus()).toHaveTextContent('Not saved');
    // More typing is kept on screen but not sent.
    await userEvent.type(title, '!');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(calls.filter((c) => c.key === 'PUT /api/note/n1')).toHaveLength(1);

    await userEvent.click(within(alert).getByRole('button', { name: 'Reload latest' }));
    await waitFor(() => expect(title).toHaveValue('Their title'));
    expect(screen.getByTestId('note-editor')).toHaveTextContent('their words');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps mine on request: saves over the latest version, knowingly', async () => {
    let version = 1;
    const calls = stubApi({
      'GET /api/note/n1': () => json(200, { results: note('n1', 'Q4 plan', { version }) }),
      'PUT /api/note/n1': (init) => {
        const sent = JSON.parse(String(init.body));
        if (sent.version !== version) return stale();
        version += 1;
        return json(200, { results: note('n1', sent.name, { body: sent.body, version }) });
      },
    });
    renderWithProviders(<NotePane noteId="n1" onClosed={() => {}} />, { route: '/notebooks' });
    const title = await screen.findByRole('textbox', { name: 'Note title' });
    version = 2;
    await userEvent.type(title, ' mine');
    await userEvent.tab();
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(saveStatus()).toHaveTextContent('Saved'));
    const saves = calls.filter((c) => c.key === 'PUT /api/note/n1');
    expect(saves.map((c) => (c.body as { version: number }).version)).toEqual([1, 2]);
    expect(saves[1].body).toMatchObject({ name: 'Q4 plan mine' });
  });

  it('formats with the toolbar: a heading, then a numbered list', async () => {
    stubApi({
      'GET /api/note/n1': () =>
        json(200, { results: note('n1', 'x', { body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'line' }] }] } }) }),
      'PUT /api/note/n1': (init) => json(200, { results: note('n1', 'x', { ...JSON.parse(String(init.body)), version: 2 }) }),
    });
    renderWithProviders(<NotePane noteId="n1" onClosed={() => {}} />, { route: '/notebooks' });
    const editor = await screen.findByTestId('note-editor');
    await userEvent.click(within(editor).getByRole('button', { name: 'H1 heading' }));
    expect(within(editor).getByRole('heading', { name: 'line', level: 1 })).toBeInTheDocument();
    expect(within(editor).getByRole('button', { name: 'H1 heading' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(editor).getByRole('button', { name: '1. List, numbered' }));
    expect(editor.querySelector('ol li')).toHaveTextContent('line');
  });

  it('deletes the note after asking', async () => {
    const onClosed = vi.fn();
    const calls = stubApi({
      'GET /api/note/n1': () => json(200, { results: note('n1', 'Q4 plan') }),
      'DELETE /api/note/n1': () => new Response(null, { status: 204 }),
    });
    renderWithProviders(<NotePane noteId="n1" onClosed={onClosed} />, { route: '/notebooks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete note' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete this note?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
    expect(calls.some((c) => c.key === 'DELETE /api/note/n1')).toBe(true);
  });
});
