import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Breadcrumbs } from './breadcrumbs';

describe('breadcrumbs', () => {
  it('links every crumb but the current page, which is bold', () => {
    render(
      <MemoryRouter initialEntries={['/settings/channels/c1/members']}>
        <Breadcrumbs />
      </MemoryRouter>,
    );
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['Home', 'Groups', 'C1']);
    expect(screen.getByRole('link', { name: 'Groups' })).toHaveAttribute('href', '/settings/channels');
    const current = screen.getByText('Members');
    expect(current.tagName).toBe('STRONG');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(trail).not.toHaveTextContent('Settings');
  });
});
