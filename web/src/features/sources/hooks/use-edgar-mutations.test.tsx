import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { json, stubApi } from '../../../test/render';
import type { Edgar } from '../api/edgar-api';
import { ago, followed, FORMS } from '../test/edgar-fixtures';
import { edgarFailure, useCheckCompany, useFollowCompany, useUnfollowCompany } from './use-edgar-mutations';

const exchanges = [...documentKeys.lists(), { source: 'home', subCategory: 'exchanges' }];

/** A client holding what EDGAR changes: the followed companies, My Data's tabs and a document list. */
function seededClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData<Edgar>(sourceKeys.edgarFollowed(), { enabled: true, reason: null, forms: FORMS, companies: [followed()] });
  client.setQueryData(libraryKeys.categories(), []);
  client.setQueryData(exchanges, { pages: [] });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

const invalidated = (client: QueryClient) =>
  [sourceKeys.edgarFollowed(), libraryKeys.categories(), exchanges].map((key) => client.getQueryState(key)?.isInvalidated);
const companies = (client: QueryClient) => client.getQueryData<Edgar>(sourceKeys.edgarFollowed())?.companies;

describe('EDGAR mutations', () => {
  it("adds a followed company to the list and refreshes it, My Data's tabs and the document lists", async () => {
    const msft = followed({ source_id: 'edgar_src_9', name: 'Microsoft Corp' });
    stubApi({ 'POST /api/connect/edgar': () => json(200, msft) });
    const { client, wrapper } = seededClient();
    const { result } = renderHook(() => useFollowCompany(), { wrapper });
    await act(() => result.current.mutateAsync({ company: 'MSFT', forms: [] }));
    expect(companies(client)?.map((c) => c.name)).toEqual(['Apple Inc.', 'Microsoft Corp']);
    expect(invalidated(client)).toEqual([true, true, true]);
  });

  it('shows the answer of Check now in place and refreshes the list only', async () => {
    stubApi({ 'POST /api/connect/edgar/edgar_src_1/refresh': () => json(200, followed({ next_attempt_at: ago(0) })) });
    const { client, wrapper } = seededClient();
    const { result } = renderHook(() => useCheckCompany(), { wrapper });
    await act(() => result.current.mutateAsync('edgar_src_1'));
    expect(companies(client)).toHaveLength(1);
    expect(invalidated(client)).toEqual([true, false, false]);
  });

  it("refreshes the list, My Data's tabs and the document lists after an unfollow", async () => {
    stubApi({ 'DELETE /api/connect/edgar/edgar_src_1': () => new Response(null, { status: 204 }) });
    const { client, wrapper } = seededClient();
    const { result } = renderHook(() => useUnfollowCompany(), { wrapper });
    await act(() => result.current.mutateAsync('edgar_src_1'));
    expect(invalidated(client)).toEqual([true, true, true]);
  });

  it("words a failure with the server's reason, EDGAR's absence, or the fallback", () => {
    const say = edgarFailure('Something went wrong. Please try again');
    expect(say(new ApiError(422, 'ambiguous_company', 'several companies are named "apple": give a ticker or cik'))).toBe(
      'Several companies are named "apple": give a ticker or cik.',
    );
    expect(say(new ApiError(503, 'edgar_not_configured', 'sec edgar is not set up on this server'))).toBe(
      'Sec edgar is not set up on this server.',
    );
    expect(say(new ApiError(500, 'internal', 'internal error'))).toBe('Something went wrong. Please try again');
  });
});
