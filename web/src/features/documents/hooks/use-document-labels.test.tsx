import { screen } from '@testing-library/react';
import { Breadcrumbs } from '../../../app/shell/breadcrumbs';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { LOADING_TITLE, useDocumentLabels } from './use-document-labels';

function Trail() {
  return <Breadcrumbs labels={useDocumentLabels()} />;
}

const doc = { deeplink: 'doc_e4801068', source: 'needldrive', title: 'Harbour report 2025', metadata: {}, read: false };

describe('the breadcrumb of a document preview', () => {
  it('shows a loading placeholder, then the title, and never the id', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({
      'GET /api/doc/needldrive?deeplink=doc_e4801068': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(<Trail />, { route: '/preview/home/doc_e4801068?source=needldrive' });
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await screen.findByText(LOADING_TITLE)).toHaveAttribute('aria-current', 'page');
    expect(trail).not.toHaveTextContent(/e4801068/i);
    answer(json(200, { results: [doc] }));
    expect(await screen.findByText('Harbour report 2025')).toHaveAttribute('aria-current', 'page');
    expect(trail).not.toHaveTextContent(/e4801068/i);
  });

  it('names a document that cannot be opened without showing its id', async () => {
    stubApi({});
    renderWithProviders(<Trail />, { route: '/preview/home/doc_e4801068?source=needldrive' });
    expect(await screen.findByText('Document')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).not.toHaveTextContent(/e4801068/i);
  });
});
