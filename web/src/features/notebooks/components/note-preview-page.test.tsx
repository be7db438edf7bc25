import { screen, within } from '@testing-library/react';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { note } from '../test/fixtures';
import { NotePreviewPage } from './note-preview-page';

describe('NotePreviewPage', () => {
  it('shows the note read-only, with its notebook, its source and a way to edit it', async () => {
    stubApi({
      'GET /api/note/n1': () =>
        json(200, {
          results: note('n1', 'Q4 plan', {
            kind: 'snippet',
            snippet: { deeplink: 'd1', source: 'rss_1', title: 'Rates held', link: 'https://news.example/rates' },
          }),
        }),
    });
    renderWithProviders(<NotePreviewPage />, { route: '/preview/needl_notebooks/n1', path: '/preview/needl_notebooks/:noteId' });
    const preview = await screen.findByTestId('note-preview');
    expect(within(preview).getByRole('heading', { name: 'Q4 plan' })).toBeInTheDocument();
    expect(await within(preview).findByRole('heading', { name: 'Plan for Q4', level: 2 })).toBeInTheDocument();
    expect(within(preview).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['hire two', 'ship notes']);
    expect(within(preview).getByRole('link', { name: 'Research' })).toHaveAttribute('href', '/notebooks?notebook=b1');
    expect(within(preview).getByRole('link', { name: /Rates held/ })).toHaveAttribute('href', 'https://news.example/rates');
    expect(within(preview).getByRole('link', { name: 'Edit in notebook' })).toHaveAttribute('href', '/notebooks?notebook=b1&note=n1');
    expect(preview.querySelector('[contenteditable="true"]')).toBeNull();
  });

  it('says so when the note does not exist (or is not yours)', async () => {
    stubApi({ 'GET /api/note/zz': () => json(404, { code: 'note_not_found', message: 'note not found' }) });
    renderWithProviders(<NotePreviewPage />, { route: '/preview/needl_notebooks/zz', path: '/preview/needl_notebooks/:noteId' });
    expect(await screen.findByRole('heading', { name: 'This note cannot be found' })).toBeInTheDocument();
  });
});
