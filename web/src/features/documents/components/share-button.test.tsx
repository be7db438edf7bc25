import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { COPY_BY_HAND, LINK_COPIED } from '../hooks/use-share-document';
import { ShareButton } from './share-button';

const doc = { deeplink: 'doc_1', source: 'needldrive', title: 'Quarterly review' };
const shared = { results: [{ ...doc, public_access_key: 'pk1' }] };
const link = `${window.location.origin}/preview/apps/doc_1?source=needldrive&public_access_key=pk1`;

describe('ShareButton', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(document, 'execCommand');
  });

  it('makes a shared link, copies it and says so', async () => {
    const user = userEvent.setup();
    const calls = stubApi({ 'GET /api/doc/needldrive?deeplink=doc_1&share=true': () => json(200, shared) });
    renderWithProviders(<ShareButton doc={doc} category="apps" />, { route: '/apps/needldrive' });
    await user.click(screen.getByRole('button', { name: 'Share Quarterly review' }));
    expect(await screen.findByText(LINK_COPIED)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(calls.map((c) => c.key)).toEqual(['GET /api/doc/needldrive?deeplink=doc_1&share=true']);
  });

  it('falls back to the copy command when the Clipboard API refuses', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('not allowed', 'NotAllowedError'));
    let copied = '';
    Object.defineProperty(document, 'execCommand', {
      configurable: true,
      value: vi.fn(() => {
        copied = (document.activeElement as HTMLTextAreaElement).value;
        return true;
      }),
    });
    stubApi({ 'GET /api/doc/needldrive?deeplink=doc_1&share=true': () => json(200, shared) });
    renderWithProviders(<ShareButton doc={doc} category="apps" />, { route: '/apps/needldrive' });
    const button = screen.getByRole('button', { name: 'Share Quarterly review' });
    await user.click(button);
    expect(await screen.findByText(LINK_COPIED)).toBeInTheDocument();
    expect(copied).toBe(link);
    expect(button).toHaveFocus();
  });

  it('shows the link to copy by hand when the browser will not copy at all', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('no'));
    stubApi({ 'GET /api/doc/needldrive?deeplink=doc_1&share=true': () => json(200, shared) });
    renderWithProviders(<ShareButton doc={doc} category="apps" />, { route: '/apps/needldrive' });
    await user.click(screen.getByRole('button', { name: 'Share Quarterly review' }));
    expect(await screen.findByText(`${COPY_BY_HAND} ${link}`)).toBeInTheDocument();
  });

  it('shows the generic error when the server gives no key', async () => {
    stubApi({ 'GET /api/doc/needldrive?deeplink=doc_1&share=true': () => json(200, { results: [doc] }) });
    renderWithProviders(<ShareButton doc={doc} />, { route: '/feeds/home' });
    await userEvent.click(screen.getByRole('button', { name: 'Share Quarterly review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Oops! Something Went Wrong. Please Try Again Later :(');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Share Quarterly review' })).toBeEnabled());
  });
});
