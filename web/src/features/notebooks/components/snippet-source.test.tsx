import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { SnippetSource } from './snippet-source';

describe('SnippetSource', () => {
  it('links a path of the app in place', () => {
    renderWithProviders(<SnippetSource snippet={{ title: 'Rates', link: '/preview/rss_news/d1' }} />, { route: '/notes' });
    expect(screen.getByRole('link', { name: 'Rates' })).toHaveAttribute('href', '/preview/rss_news/d1');
  });

  it.each(['/\\evil.example/x', '//evil.example', '/\t/evil.example', 'javascript:alert(1)'])(
    'shows the title of a source whose link %j leaves the app, with no link',
    (link) => {
      renderWithProviders(<SnippetSource snippet={{ title: 'Rates', link }} />, { route: '/notes' });
      expect(screen.getByTestId('snippet-source')).toHaveTextContent('Source: Rates');
      expect(screen.queryByRole('link')).toBeNull();
    },
  );
});
