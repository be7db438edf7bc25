import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { isApiError, serverMessage } from '../../../lib/api-client';
import { asSentence } from '../../../lib/format';
import type { ToastMeta } from '../../../lib/query-client';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import {
  checkCompany,
  EDGAR_NOT_CONFIGURED,
  followCompany,
  unfollowCompany,
  type Edgar,
  type FollowedCompany,
} from '../api/edgar-api';
import { CHECK_FAILED, COMPANY_FOLLOWED, COMPANY_UNFOLLOWED, FOLLOW_FAILED } from '../messages';

/**
 * Returns what to tell a person about a failed EDGAR call: the server's words for a refusal, and
 * for EDGAR not being set up here (a 503 whose words are meant for people), else `fallback`.
 */
export const edgarFailure = (fallback: string) => (error: unknown) => {
  if (isApiError(error) && error.code === EDGAR_NOT_CONFIGURED && error.message) return asSentence(error.message);
  const words = serverMessage(error);
  return words ? asSentence(words) : fallback;
};

/** Puts `company` in the cached list, replacing its older copy or adding it. */
function showCompany(queryClient: QueryClient, company: FollowedCompany) {
  queryClient.setQueryData<Edgar>(sourceKeys.edgarFollowed(), (edgar) => {
    if (!edgar) return edgar;
    const known = edgar.companies.some((c) => c.source_id === company.source_id);
    const companies = known
      ? edgar.companies.map((c) => (c.source_id === company.source_id ? company : c))
      : [...edgar.companies, company];
    return { ...edgar, companies };
  });
}

/** The followed companies; asked again after every change, and after a refusal (EDGAR may have been turned off). */
const refreshEdgar = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: sourceKeys.edgarFollowed() });

/** What following or unfollowing also changes: My Data's tabs (Exchanges connects) and its document lists. */
const refreshMyData = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
    queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
  ]);

/** Follows a company; a refusal is left for the form to show beside itself, a success is toasted. */
export function useFollowCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false, successToast: COMPANY_FOLLOWED } satisfies ToastMeta,
    mutationFn: followCompany,
    onSuccess: (company) => {
      showCompany(queryClient, company);
      return refreshMyData(queryClient);
    },
    onSettled: () => refreshEdgar(queryClient),
  });
}

/** Asks for a company's filings to be checked now; the list then polls until the check is recorded. */
export function useCheckCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: edgarFailure(CHECK_FAILED) } satisfies ToastMeta,
    mutationFn: checkCompany,
    onSuccess: (company) => showCompany(queryClient, company),
    onSettled: () => refreshEdgar(queryClient),
  });
}

/** Stops following a company (by its source id). */
export function useUnfollowCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: edgarFailure(FOLLOW_FAILED), successToast: COMPANY_UNFOLLOWED } satisfies ToastMeta,
    mutationFn: unfollowCompany,
    onSuccess: () => refreshMyData(queryClient),
    onSettled: () => refreshEdgar(queryClient),
  });
}
