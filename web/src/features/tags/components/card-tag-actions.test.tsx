import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardActionTarget } from '../../../lib/card-actions';
import { CardScopeProvider } from '../../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { BOOKMARK_FAILED, FIND_OR_CREATE_TAG, PLEASE_CREATE_TAG } from '../messages';
import { CardTagActions } from './card-tag-actions';
import { CardTags } from './card-tags';

const target: CardActionTarget = {
  deeplink: 'd1',
  source: 'needldrive',
  title: 'Quarterly review',
  link: null,
  excerpt: null,
  previewPath: '/preview/apps/d1?source=needldrive',
};

const index = (over: Partial<{ user_tags: unknown[]; shared_tags: unknown[]; bookmarked: boolean }> = {}) =>
  json(200, { results: { user_tags: [], shared_tags: [], bookmarked: false, ...over } });

const flags = () => json(200, { features: { tags: true, bookmarks: true } });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const renderCard = () =>
  renderWithProviders(
    <article aria-label="card">
      <CardTags target={target} />
      <CardTagActions target={target} />
    </article>,
    { route: '/feeds/home' },
  );

describe('the bookmark toggle', () => {
  it('shows the bookmark at once and goes back with a toast when the server refuses', async () => {
    const answer = deferred<Response>();
    const calls = stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index(),
      'PUT /api/bookmarks/d1': () => answer.promise,
    });
    renderCard();
    const toggle = await screen.findByRole('button', { name: /^Bookmark/ });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(calls.map((c) => c.key)).toContain('PUT /api/bookmarks/d1');

    answer.resolve(json(500, { code: 'internal', message: 'internal error' }));
    expect(await screen.findByText(BOOKMARK_FAILED)).toBeInTheDocument();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
  });

  it('takes a bookmark off with DELETE and keeps it off when the server agrees', async () => {
    let bookmarked = true;
    stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index({ bookmarked }),
      'DELETE /api/bookmarks/d1': () => {
        bookmarked = false;
        return json(200, { results: { deeplink: 'd1', bookmarked: false } });
      },
    });
    renderCard();
    const toggle = await screen.findByRole('button', { name: /Bookmark/ });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(bookmarked).toBe(false));
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('the tag picker', () => {
  it('asks for a name, creates a tag inline, selects it, and saves with the base it opened with', async () => {
    const userTags: Array<{ id: string; name: string }> = [];
    const calls = stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index(),
      'GET /api/tag/user-tags': () => json(200, { results: userTags }),
      'POST /api/tag': () => {
        userTags.push({ id: 't1', name: 'Risk' });
        return json(200, { results: { id: 't1', name: 'Risk' } });
      },
      'POST /api/tag/d1': () => index({ user_tags: [{ id: 't1', name: 'Risk' }] }),
    });
    renderCard();
    const button = await screen.findByRole('button', { name: /Tags of Quarterly review/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    const picker = screen.getByRole('dialog', { name: 'Tags of Quarterly review' });
    expect(await within(picker).findByText(PLEASE_CREATE_TAG)).toBeInTheDocument();

    const input = within(picker).getByPlaceholderText(FIND_OR_CREATE_TAG);
    expect(input).toHaveFocus();
    await userEvent.type(input, '   {Enter}');
    expect(within(picker).getByRole('alert')).toHaveTextContent(PLEASE_CREATE_TAG);
    expect(calls.filter((c) => c.key === 'POST /api/tag')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, ' Risk {Enter}');
    const risk = await within(picker).findByRole('checkbox', { name: 'Risk' });
    expect(risk).toBeChecked();
    expect(input).toHaveValue('');
    expect(calls.find((c) => c.key === 'POST /api/tag')?.body).toEqual({ tag: 'Risk' });

    await userEvent.click(within(picker).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.key === 'POST /api/tag/d1')?.body).toEqual({
      tags: ['t1'],
      base: [],
      channel_id: null,
      feed_id: null,
    });
    expect(await screen.findByRole('link', { name: 'Risk' })).toHaveAttribute('href', '/needlbox/tags/all?tag_id=t1');
  });

  it('filters the user’s tags, does not offer an existing name, and sends only what the user changed', async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index({ user_tags: [{ id: 't2', name: 'Macro' }] }),
      'GET /api/tag/user-tags': () =>
        json(200, {
          results: [
            { id: 't2', name: 'Macro' },
            { id: 't3', name: 'Rates' },
            { id: 't1', name: 'Risk' },
          ],
        }),
      'POST /api/tag/d1': () => index({ user_tags: [{ id: 't1', name: 'Risk' }] }),
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: /Tags of/ }));
    const picker = screen.getByRole('dialog');
    expect(await within(picker).findByRole('checkbox', { name: 'Macro' })).toBeChecked();

    const input = within(picker).getByPlaceholderText(FIND_OR_CREATE_TAG);
    const names = () => within(picker).queryAllByRole('checkbox').map((c) => c.closest('label')?.textContent);
    await userEvent.type(input, 'AT');
    expect(names()).toEqual(['Rates']);
    expect(within(picker).getByRole('button', { name: 'Create “AT”' })).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, ' risk');
    expect(names()).toEqual(['Risk']);
    // An existing name is not offered again; Enter picks the tag instead.
    expect(within(picker).queryByRole('button', { name: /Create/ })).not.toBeInTheDocument();
    await userEvent.type(input, '{Enter}');
    expect(input).toHaveValue('');
    expect(names()).toEqual(['Macro', 'Rates', 'Risk']);
    expect(within(picker).getByRole('checkbox', { name: 'Risk' })).toBeChecked();
    await userEvent.click(within(picker).getByRole('checkbox', { name: 'Macro' }));

    await userEvent.click(within(picker).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/tag/d1')).toBeDefined());
    expect(calls.find((c) => c.key === 'POST /api/tag/d1')?.body).toMatchObject({ tags: ['t1'], base: ['t2'] });
  });

  it('closes without a call when nothing changed, and on Escape', async () => {
    const calls = stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index(),
      'GET /api/tag/user-tags': () => json(200, { results: [{ id: 't1', name: 'Risk' }] }),
    });
    renderCard();
    const button = await screen.findByRole('button', { name: /Tags of/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(calls.some((c) => c.key === 'POST /api/tag/d1')).toBe(false);
  });

  it('shows the server’s refusal of a new name in the picker', async () => {
    stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => index(),
      'GET /api/tag/user-tags': () => json(200, { results: [] }),
      'POST /api/tag': () => json(409, { code: 'tag_name_taken', message: 'you already have a tag named Risk' }),
    });
    renderCard();
    const button = await screen.findByRole('button', { name: /Tags of/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.type(screen.getByPlaceholderText(FIND_OR_CREATE_TAG), 'Risk{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('you already have a tag named Risk');
  });
});

describe('tags and bookmark on cards', () => {
  it('are not shown on Needl Web results, nor asked for', async () => {
    const calls = stubApi({ 'GET /api/feature/config': flags });
    renderWithProviders(
      <CardScopeProvider value={{ webResult: true }}>
        <article aria-label="card">
          <CardTags target={target} />
          <CardTagActions target={target} />
        </article>
      </CardScopeProvider>,
      { route: '/search' },
    );
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/feature/config')).toBe(false));
    expect(screen.getByRole('article')).toBeEmptyDOMElement();
    expect(calls.some((c) => c.key.startsWith('GET /api/tag'))).toBe(false);
  });

  it('are not shown when the flags are off', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: { tags: false, bookmarks: false } }),
      'GET /api/tag?deep_link=d1': () => index({ user_tags: [{ id: 't1', name: 'Risk' }] }),
    });
    renderCard();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Bookmark/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Tags of/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Risk')).not.toBeInTheDocument();
  });

  it('are not shown for a document the user cannot tag', async () => {
    stubApi({
      'GET /api/feature/config': flags,
      'GET /api/tag?deep_link=d1': () => json(404, { code: 'not_found', message: 'document not found' }),
    });
    renderCard();
    const toggle = await screen.findByRole('button', { name: /Bookmark/ });
    await waitFor(() => expect(toggle).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
