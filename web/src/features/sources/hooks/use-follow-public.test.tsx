import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { json, stubApi } from '../../../test/render';
import type { Catalogue } from '../api/catalogue-api';
import { useFollowPublic, useFollowPublicMany, withFollowing } from './use-follow-public';

const catalogue: Catalogue = {
  results: [
    { key: 'a', title: 'A', group: null, kind: 'source', fetchable: true, following: false },
    { key: 'b', title: 'B', group: null, kind: 'source', fetchable: true, following: false },
  ],
};

/** A client holding what following changes: the catalogue, the followed feeds, My Data's tabs and a document list. */
function seededClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(sourceKeys.catalogue(), catalogue);
  client.setQueryData(sourceKeys.rss(), { results: [] });
  client.setQueryData(libraryKeys.categories(), []);
  client.setQueryData([...documentKeys.lists(), { source: 'home', subCategory: 'exchanges' }], { pages: [] });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

const invalidated = (client: QueryClient) =>
  [sourceKeys.catalogue(), sourceKeys.rss(), libraryKeys.categories(), [...documentKeys.lists(), { source: 'home', subCategory: 'exchanges' }]].map(
    (key) => client.getQueryState(key)?.isInvalidated,
  );

describe('following catalogue entries', () => {
  it('marks only the entries named', () => {
    expect(withFollowing(catalogue, ['b'], true)?.results.map((s) => s.following)).toEqual([false, true]);
    expect(withFollowing(undefined, ['b'], true)).toBeUndefined();
  });

  it("refreshes the user's sources, My Data's tabs and the document lists after a follow", async () => {
    stubApi({ 'POST /api/connect/public': () => json(200, { source_id: 'a', following: true }) });
    const { client, wrapper } = seededClient();
    const { result } = renderHook(() => useFollowPublic(), { wrapper });
    await act(() => result.current.mutateAsync({ key: 'a', follow: true }));
    expect(invalidated(client)).toEqual([true, true, true, true]);
    expect(client.getQueryData<Catalogue>(sourceKeys.catalogue())?.results[0].following).toBe(true);
  });

  it('refreshes the same after following several, and after a failure too', async () => {
    stubApi({ 'POST /api/connect/public/multiple': () => json(422, { code: 'invalid_keys', message: 'give 1 to 100 source keys' }) });
    const { client, wrapper } = seededClient();
    const { result } = renderHook(() => useFollowPublicMany(), { wrapper });
    act(() => result.current.mutate(['a', 'b']));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(client.getQueryData<Catalogue>(sourceKeys.catalogue())?.results.map((s) => s.following)).toEqual([false, false]);
    expect(invalidated(client)).toEqual([true, true, true, true]);
  });
});
