import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { lazyPage } from './lazy-page';

describe('lazyPage', () => {
  it('says what it is loading while the page’s code arrives, then shows the page with its props', async () => {
    let arrive: (page: (props: { name: string }) => ReactNode) => void = () => {};
    const Page = lazyPage<{ name: string }>('Loading the greeting', () => new Promise((resolve) => (arrive = resolve)));

    render(<Page name="Ada" />);
    expect(screen.getByRole('status', { name: 'Loading the greeting' })).toBeInTheDocument();

    arrive(({ name }) => <h2>Hello {name}</h2>);
    expect(await screen.findByRole('heading', { name: 'Hello Ada' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
