import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryProvider } from '../providers';
import { ToastContext } from '../toast-context';
import { json, stubApi } from '../../test/render';
import { TaggedDocumentsPage, tagFilterOf } from './tagged-documents-page';

const doc = (n: number) => ({
  deeplink: `d${n}`,
  source: 'rss_1',
  link: null,
  title: `Item ${n}`,
  author: null,
  published_at: null,
  summary: null,
  metadata: {},
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
});

const page = (docs: unknown[]) => json(200, { results: docs, page: 0, has_more: false });

const stub = () =>
  stubApi({
    'GET /api/doc/read_status': () => json(200, { results: [] }),
    'GET /api/source/rss': () => json(200, { results: [] }),
    'GET /api/feature/config': () => json(200, { features: {} }),
    'GET /api/tag/user-tags': () =>
      json(200, {
        results: [
          { id: 't1', name: 'Macro' },
          { id: 't2', name: 'Risk' },
        ],
      }),
    'GET /api/tag/documents?page=0&limit=20': () => page([doc(1), doc(2)]),
    'GET /api/tag/documents?page=0&limit=20&tag_id=t2': () => page([doc(2)]),
    'GET /api/tag/documents?page=0&limit=20&tag_id=t1': () => page([]),
  });

/** Renders the page at an entry that may carry navigation state, as a tag chip's link does. */
const renderAt = (entry: string | { pathname: string; search?: string; state?: unknown }) =>
  render(
    <ToastContext.Provider>
      <QueryProvider retry={false}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/needlbox/tags/all" element={<TaggedDocumentsPage />} />
          </Routes>
        </MemoryRouter>
      </QueryProvider>
    </ToastContext.Provider>,
  );

describe('TaggedDocumentsPage', () => {
  it('reads the tag filter from the address, else from navigation state', () => {
    expect(tagFilterOf(new URLSearchParams('tag_id=t1'), { tagId: 't2' })).toBe('t1');
    expect(tagFilterOf(new URLSearchParams(), { tagId: 't2' })).toBe('t2');
    expect(tagFilterOf(new URLSearchParams(), null)).toBeNull();
    expect(tagFilterOf(new URLSearchParams(), { tagId: 7 })).toBeNull();
  });

  it('lists the documents under every tag, and under one when the filter picks it', async () => {
    const calls = stub();
    renderAt('/needlbox/tags/all');
    expect(await screen.findByRole('article', { name: /Item 1/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'All tags' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Risk' }));
    expect(screen.getByRole('button', { name: 'Risk' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByRole('article', { name: /Item 2/ })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: /Item 1/ })).not.toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('GET /api/tag/documents?page=0&limit=20&tag_id=t2');
  });

  it('opens with the tag passed as navigation state', async () => {
    stub();
    renderAt({ pathname: '/needlbox/tags/all', state: { tagId: 't1' } });
    expect(await screen.findByRole('heading', { name: 'Nothing has this tag' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Macro' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says so when the tag in the filter no longer exists', async () => {
    const calls = stub();
    renderAt('/needlbox/tags/all?tag_id=gone');
    expect(await screen.findByRole('heading', { name: 'This tag no longer exists' })).toBeInTheDocument();
    expect(calls.some((c) => c.key.includes('tag_id=gone'))).toBe(false);
  });
});
