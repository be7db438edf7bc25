import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { note, notebook } from '../test/fixtures';
import { AddToNotesButton } from './add-to-notes-button';

const target: CardActionTarget = {
  deeplink: 'rss_1:abc',
  source: 'rss_1',
  title: 'Rates held steady',
  link: 'https://news.example/rates',
  excerpt: 'The bank held rates at 4%.',
  previewPath: '/preview/feeds/rss_1%3Aabc?source=rss_1',
};

const flags = (features: Record<string, boolean>) => () => json(200, { features });
const snipped = () => json(200, { results: note('n9', 'Rates held steady', { kind: 'snippet' }) });

describe('AddToNotesButton', () => {
  it('is hidden when the notebooks flag is off', async () => {
    const calls = stubApi({ 'GET /api/feature/config': flags({ notebooks: false }) });
    renderWithProviders(<AddToNotesButton target={target} />, { route: '/feeds/home' });
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/feature/config')).toBe(true));
    expect(screen.queryByRole('button', { name: /to Notes/ })).not.toBeInTheDocument();
  });

  it('adds the document to the chosen notebook as a snippet: quote, source link, title', async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags({ notebooks: true }),
      'GET /api/notebook/list': () => json(200, { results: [notebook('b2', 'Markets'), notebook('b1', 'Research')] }),
      'POST /api/note/snip/b1': snipped,
    });
    renderWithProviders(<AddToNotesButton target={target} />, { route: '/feeds/home' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add to Notes: Rates held steady' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to Notes' });
    await userEvent.click(await within(dialog).findByRole('radio', { name: 'Research' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Note created successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/note/snip/b1')?.body).toEqual({
      name: 'Rates held steady',
      document: {
        type: 'doc',
        content: [
          { type: 'blockquote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The bank held rates at 4%.' }] }] },
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'Source: ' },
              { type: 'text', text: 'Rates held steady', marks: [{ type: 'link', attrs: { href: 'https://news.example/rates' } }] },
            ],
          },
        ],
      },
      source: { deeplink: 'rss_1:abc', source: 'rss_1', title: 'Rates held steady', link: 'https://news.example/rates' },
    });
  });

  it("links a document without a web address to its preview in the app", async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags({ notebooks: true }),
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research')] }),
      'POST /api/note/snip/b1': snipped,
    });
    renderWithProviders(<AddToNotesButton target={{ ...target, link: null, excerpt: null }} />, { route: '/feeds/home' });
    await userEvent.click(await screen.findByRole('button', { name: /to Notes/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add' }));
    await screen.findByText('Note created successfully!');
    const body = calls.find((c) => c.key === 'POST /api/note/snip/b1')?.body as { source: { link: string } };
    expect(body.source.link).toBe('/preview/feeds/rss_1%3Aabc?source=rss_1');
  });

  it("says Add to Notes failed in the spec's words when the server refuses", async () => {
    stubApi({
      'GET /api/feature/config': flags({ notebooks: true }),
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research')] }),
      'POST /api/note/snip/b1': () => json(422, { code: 'note_body_too_large', message: 'too large' }),
    });
    renderWithProviders(<AddToNotesButton target={target} />, { route: '/feeds/home' });
    await userEvent.click(await screen.findByRole('button', { name: /to Notes/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add to Notes failed! Please contact us!')).toBeInTheDocument();
  });

  it('with no notebook yet, asks for one and adds to the one made there', async () => {
    let shelf: ReturnType<typeof notebook>[] = [];
    const calls = stubApi({
      'GET /api/feature/config': flags({ notebooks: true }),
      'GET /api/notebook/list': () => json(200, { results: shelf }),
      'PUT /api/notebook': () => {
        shelf = [notebook('b7', 'Reading')];
        return json(200, { results: { notebookId: 'b7', notebook: shelf[0] } });
      },
      'POST /api/note/snip/b7': snipped,
    });
    renderWithProviders(<AddToNotesButton target={target} />, { route: '/feeds/home' });
    await userEvent.click(await screen.findByRole('button', { name: /to Notes/ }));
    const dialog = screen.getByRole('dialog', { name: 'Add to Notes' });
    expect(await within(dialog).findByText('Please create a Notebook')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeDisabled();

    await userEvent.type(within(dialog).getByLabelText('Or a new notebook'), 'Reading');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('radio', { name: 'Reading' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText('Note created successfully!');
    expect(calls.some((c) => c.key === 'POST /api/note/snip/b7')).toBe(true);
  });

  it("keeps the dialog's clicks from the card it was opened on (a search result opens on click)", async () => {
    stubApi({
      'GET /api/feature/config': flags({ notebooks: true }),
      'GET /api/notebook/list': () => json(200, { results: [notebook('b1', 'Research')] }),
    });
    const onCardClick = vi.fn();
    renderWithProviders(
      <div onClick={onCardClick}>
        <AddToNotesButton target={target} />
      </div>,
      { route: '/feeds/home' },
    );
    await userEvent.click(await screen.findByRole('button', { name: /to Notes/ }));
    onCardClick.mockClear();
    const dialog = screen.getByRole('dialog', { name: 'Add to Notes' });
    await userEvent.click(await within(dialog).findByText('Research'));
    await userEvent.click(within(dialog).getByText(/goes to the notebook you pick/));
    expect(onCardClick).not.toHaveBeenCalled();
  });

  it('shows the plan prompt instead of the picker when pricing applies and the plan lacks it', async () => {
    stubApi({
      'GET /api/feature/config': flags({ notebooks: true, is_pricing: true }),
      'GET /api/messaging/pricing': () => json(200, { results: { add_notebook: { isEligible: false, message: 'Notes come with Pro.' } } }),
    });
    renderWithProviders(<AddToNotesButton target={target} />, { route: '/feeds/home' });
    const button = await screen.findByRole('button', { name: /to Notes/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    const prompt = screen.getByRole('dialog', { name: 'Upgrade your plan' });
    expect(prompt).toHaveTextContent('Notes come with Pro.');
    expect(screen.queryByRole('dialog', { name: 'Add to Notes' })).not.toBeInTheDocument();
  });
});
