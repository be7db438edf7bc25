import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { FullDocumentPage, RedirectDocumentPage } from './document-pages';

function Where() {
  const { pathname, search } = useLocation();
  return <p>at {`${pathname}${search}`}</p>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/redirect/document" element={<RedirectDocumentPage />} />
      <Route path="/document" element={<FullDocumentPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );

const doc = {
  deeplink: 'doc_1',
  source: 'needldrive',
  link: null,
  title: 'Quarterly review',
  author: null,
  published_at: null,
  summary: 'Revenue grew.',
  metadata: {},
  ingested_at: '2026-11-20T10:00:00Z',
  read: false,
};

const documentApi = (key = 'GET /api/doc/needldrive?deeplink=doc_1&access_key=k1') => ({
  [key]: () => json(200, { results: [doc] }),
  'GET /api/doc/read_status': () => json(200, { results: [] }),
  'GET /api/source/rss': () => json(200, { results: [] }),
});

describe('/redirect/document', () => {
  it('goes on to the preview of the document, with its keys, passage and overlay parameters', async () => {
    stubApi({});
    renderAt('/redirect/document?deeplink=doc_1&source=needldrive&category=apps&access_key=k1&page=2&overlay-type=ask-needl');
    expect(
      await screen.findByText('at /preview/apps/doc_1?source=needldrive&access_key=k1&page=2&overlay-type=ask-needl'),
    ).toBeInTheDocument();
  });

  it('opens a note in its own preview', async () => {
    stubApi({});
    renderAt('/redirect/document?deeplink=n1&source=needl_notebooks');
    expect(await screen.findByText('at /preview/needl_notebooks/n1')).toBeInTheDocument();
  });

  it('says a link without its source is incomplete', async () => {
    stubApi({});
    renderAt('/redirect/document?deeplink=doc_1');
    expect(await screen.findByRole('heading', { name: 'This document link is incomplete' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Needl' })).toHaveAttribute('href', '/home');
  });
});

describe('/document', () => {
  it('shows the document a deeplink and source name, through the preview', async () => {
    const calls = stubApi(documentApi());
    renderAt('/document?deeplink=doc_1&source=needldrive&access_key=k1');
    expect(await screen.findByRole('heading', { name: 'Quarterly review' })).toBeInTheDocument();
    expect(screen.getByText('Revenue grew.')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('GET /api/doc/needldrive?deeplink=doc_1&access_key=k1');
  });

  it('opens the app’s own file address as the document it names', async () => {
    stubApi(documentApi('GET /api/doc/needldrive?deeplink=doc_1&public_access_key=p1'));
    renderAt(`/document?url=${encodeURIComponent('/api/doc/needldrive/file?deeplink=doc_1&public_access_key=p1')}`);
    expect(await screen.findByRole('heading', { name: 'Quarterly review' })).toBeInTheDocument();
  });

  it('never opens another site’s address: it names it as text, fetching nothing', async () => {
    const calls = stubApi({});
    const address = 'https://evil.example/report.pdf';
    renderAt(`/document?url=${encodeURIComponent(address)}`);
    expect(await screen.findByRole('heading', { name: 'This address cannot be opened here' })).toBeInTheDocument();
    expect(screen.getByText(address).tagName).toBe('CODE');
    expect(screen.queryByRole('link', { name: address })).not.toBeInTheDocument();
    expect(document.querySelector('iframe, object, embed')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('says a link naming no document is incomplete', async () => {
    stubApi({});
    renderAt('/document');
    expect(await screen.findByRole('heading', { name: 'This document link is incomplete' })).toBeInTheDocument();
  });
});
