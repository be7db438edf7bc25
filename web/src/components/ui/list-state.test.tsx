import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../lib/api-client';
import { ListState, type ListQuery, type ListStateProps } from './list-state';

type Tags = string[];

const loaded = (data: Tags): ListQuery<Tags> => ({ isPending: false, isError: false, error: null, data, refetch: vi.fn() });
const pending = (): ListQuery<Tags> => ({ isPending: true, isError: false, error: null, data: undefined, refetch: vi.fn() });
const failed = (error: unknown): ListQuery<Tags> => ({ isPending: false, isError: true, error, data: undefined, refetch: vi.fn() });

const renderList = (query: ListQuery<Tags>, props: Partial<ListStateProps<Tags>> = {}) =>
  render(
    <ListState
      query={query}
      loadingLabel="Loading your tags"
      errorTitle="Your tags could not be loaded"
      isEmpty={(tags) => tags.length === 0}
      emptyTitle="No tags yet"
      emptyHint={<p>Tag a document from its card.</p>}
      {...props}
    >
      {(tags) => (
        <ul aria-label="Your tags">
          {tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
    </ListState>,
  );

describe('ListState', () => {
  it('says what is loading, in words a person can read, as a status', () => {
    renderList(pending());
    const status = screen.getByRole('status', { name: 'Loading your tags' });
    expect(within(status).getByText('Loading your tags')).not.toHaveClass('visually-hidden');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows the skeleton it is given instead of the spinner while loading', () => {
    renderList(pending(), { loading: <div role="status" aria-label="Loading rows" /> });
    expect(screen.getByRole('status', { name: 'Loading rows' })).toBeInTheDocument();
    expect(screen.queryByText('Loading your tags')).not.toBeInTheDocument();
  });

  it("reports a failure as an alert with the server's words and tries again on request", async () => {
    const query = failed(new ApiError(404, 'not_found', 'channel not found'));
    renderList(query);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Your tags could not be loaded' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Channel not found.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a server failure', new ApiError(500, 'internal', 'internal error')],
    ['a bare status', new ApiError(404, 'http_404', 'Not Found')],
    ['a lost session', new ApiError(401, 'unauthorized', 'token expired')],
    ['no answer at all', new TypeError('Failed to fetch')],
  ])('keeps to its own words after %s', (_, error) => {
    renderList(failed(error), { errorHint: 'Check your connection.' });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Your tags could not be loaded');
    expect(alert).toHaveTextContent('Check your connection.');
    expect(alert).not.toHaveTextContent(error.message);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says the list is empty, with what would fill it', () => {
    renderList(loaded([]));
    expect(screen.getByRole('heading', { name: 'No tags yet' })).toBeInTheDocument();
    expect(screen.getByText('Tag a document from its card.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows the empty state it is given instead of its own', () => {
    renderList(loaded([]), { empty: <p>Nothing has this tag</p> });
    expect(screen.getByText('Nothing has this tag')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No tags yet' })).not.toBeInTheDocument();
  });

  it('draws the list once there is something in it', () => {
    renderList(loaded(['energy', 'rates']));
    expect(within(screen.getByRole('list', { name: 'Your tags' })).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lists loaded data when it is given no test of emptiness', () => {
    renderList(loaded([]), { isEmpty: undefined });
    expect(screen.getByRole('list', { name: 'Your tags' })).toBeInTheDocument();
  });

  it('writes each state as a line when compact', async () => {
    const query = failed(new ApiError(403, 'forbidden', 'you are not in this group'));
    const { unmount } = renderList(query, { compact: true, emptyTitle: 'No tags yet.', emptyHint: undefined });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Your tags could not be loaded. You are not in this group. Try again');
    expect(within(alert).queryByRole('heading')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
    unmount();

    renderList(loaded([]), { compact: true, emptyTitle: 'No tags yet.', emptyHint: undefined });
    expect(screen.getByText('No tags yet.')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it("takes a React Query result: Try again fetches again and the list replaces the failure", async () => {
    let answer: () => Promise<Tags> = () => Promise.reject(new ApiError(409, 'conflict', 'the tags are being rebuilt'));
    function Tags() {
      const tags = useQuery({ queryKey: ['tags'], queryFn: () => answer(), retry: false });
      return (
        <ListState query={tags} loadingLabel="Loading your tags" errorTitle="Your tags could not be loaded">
          {(data) => <p>{data.join(', ')}</p>}
        </ListState>
      );
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Tags />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status', { name: 'Loading your tags' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('The tags are being rebuilt.');
    answer = () => Promise.resolve(['energy', 'rates']);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('energy, rates')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
