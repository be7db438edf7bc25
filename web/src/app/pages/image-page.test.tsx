import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderWithProviders, stubApi } from '../../test/render';
import { imageSource, ImagePage } from './image-page';

const file = (type: string, name = 'chart.png') => () =>
  new Response(new Uint8Array([137, 80, 78, 71]), {
    status: 200,
    headers: { 'content-type': type, 'content-disposition': `inline; filename="${name}"` },
  });

const FILE_SRC = '/api/doc/needldrive/file?deeplink=doc_1';

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/image" element={<ImagePage />} />
    </Routes>,
    { route },
  );

describe('imageSource', () => {
  it('takes a document file of the server’s, fetched with the session, or a file the app serves', () => {
    expect(imageSource(`${FILE_SRC}&public_access_key=p`)).toMatchObject({
      kind: 'document',
      path: '/doc/needldrive/file?deeplink=doc_1&public_access_key=p',
    });
    expect(imageSource('/assets/logo.png')).toEqual({ kind: 'app', url: `${window.location.origin}/assets/logo.png` });
  });

  it('refuses other sites, data: and blob: addresses, and server calls that are no document file', () => {
    const refused = [
      'https://evil.example/a.png',
      '//evil.example/a.png',
      'data:image/png;base64,AA',
      'blob:x',
      '/api/user',
      '/api/doc/s?deeplink=d&share=true',
      null,
    ];
    for (const src of refused) expect(imageSource(src)).toBeNull();
  });
});

describe('/image', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:shown'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a document’s image, fitted, and zooms with the toolbar and the keyboard', async () => {
    const calls = stubApi({ [`GET ${FILE_SRC}`]: file('image/png') });
    renderAt(`/image?src=${encodeURIComponent(FILE_SRC)}`);
    const image = await screen.findByRole('img', { name: 'chart.png' });
    expect(image).toHaveAttribute('src', 'blob:shown');
    expect(calls.map((c) => c.key)).toEqual([`GET ${FILE_SRC}`]);
    const zoom = screen.getByRole('status', { name: 'Zoom' });
    expect(zoom).toHaveTextContent('Fit');

    await userEvent.click(screen.getByRole('button', { name: 'Actual size' }));
    expect(zoom).toHaveTextContent('100%');
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(zoom).toHaveTextContent('150%');

    const stage = screen.getByRole('region', { name: /^chart\.png:/ });
    fireEvent.keyDown(stage, { key: '-' });
    fireEvent.keyDown(stage, { key: '-' });
    expect(zoom).toHaveTextContent('75%');
    fireEvent.keyDown(stage, { key: 'f' });
    expect(zoom).toHaveTextContent('Fit');
    fireEvent.keyDown(stage, { key: '0' });
    expect(zoom).toHaveTextContent('100%');
  });

  it('stops at the smallest zoom', async () => {
    stubApi({ [`GET ${FILE_SRC}`]: file('image/png') });
    renderAt(`/image?src=${encodeURIComponent(FILE_SRC)}`);
    const stage = await screen.findByRole('region', { name: /^chart\.png:/ });
    fireEvent.keyDown(stage, { key: '0' });
    for (let i = 0; i < 5; i += 1) fireEvent.keyDown(stage, { key: '-' });
    expect(screen.getByRole('status', { name: 'Zoom' })).toHaveTextContent('25%');
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  });

  it.each([
    ['Close', () => userEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Escape', () => fireEvent.keyDown(document.body, { key: 'Escape' })],
  ])('leaves with %s, to the app’s root when opened directly', async (_, leave) => {
    stubApi({ [`GET ${FILE_SRC}`]: file('image/png') });
    renderAt(`/image?src=${encodeURIComponent(FILE_SRC)}`);
    await screen.findByRole('img', { name: 'chart.png' });
    await leave();
    expect(await screen.findByText('at home')).toBeInTheDocument();
  });

  it('does not show an SVG (it can carry script) or any other file as an image', async () => {
    stubApi({ [`GET ${FILE_SRC}`]: file('image/svg+xml', 'logo.svg') });
    renderAt(`/image?src=${encodeURIComponent(FILE_SRC)}`);
    expect(await screen.findByRole('heading', { name: 'This file is not an image Needl can show' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('refuses another site’s image without fetching it', async () => {
    const calls = stubApi({});
    renderAt(`/image?src=${encodeURIComponent('https://evil.example/a.png')}`);
    expect(await screen.findByRole('heading', { name: 'This image cannot be shown here' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
