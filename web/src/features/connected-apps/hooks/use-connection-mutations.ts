/**
 * The writes every connection makes: check an account, connect it, sync now and disconnect.
 * Refusals are shown by the form or dialog that made them, so they raise no error toast (a
 * refusal of the plan still brings the pricing prompt, through the mutation cache); success
 * toasts come through the cache too (`successToast`). Each write puts the app's new state in the
 * cache and refreshes the apps and the lists its documents join.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { connectedAppQueries, disconnectConnection, syncConnection, type ConnectedApp, type ConnectionKey } from '../api/apps-api';
import type { Connection } from '../connections';
import { CALL_FAILED, refusalText } from '../refusal';

/** Keeps an app's new state and refreshes what depends on it (the apps, the documents, My Data's counts). */
export function settle(queryClient: QueryClient, key: ConnectionKey, app: ConnectedApp | null) {
  if (app) queryClient.setQueryData(connectedAppQueries.detail(key).queryKey, app);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: connectedAppQueries.all() }),
    queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
  ]);
}

/** Signs in with an account and lists what it found (a form's first step); records nothing. */
export function useCheckAccount<A, L>(check: (account: A) => Promise<L>) {
  return useMutation({ mutationFn: check, meta: { toast: false } satisfies ToastMeta });
}

/**
 * Connects an account with `connect`. `onConnected` is the mutation's own callback, not the
 * call's: the form that connects gives way to the connected summary as the new state lands, and
 * a call's callbacks die with the form, while the page must still start watching the first sync.
 */
export function useConnectAccount<V>(
  connection: Connection,
  connect: (variables: V) => Promise<ConnectedApp>,
  onConnected?: (app: ConnectedApp) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connect,
    meta: { toast: false, successToast: connection.connectedToast } satisfies ToastMeta,
    onSuccess: (app) => {
      onConnected?.(app);
      return settle(queryClient, connection.key, app);
    },
  });
}

/**
 * Asks for the connection to be read now; a failure is a toast with the server's words, and the
 * app's state is asked again (it may have been disconnected elsewhere).
 */
export function useSyncConnection(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => syncConnection(connection.key),
    meta: { successToast: connection.syncToast, errorToast: (error) => refusalText(error) ?? CALL_FAILED } satisfies ToastMeta,
    onSuccess: (app) => settle(queryClient, connection.key, app),
    onError: () => queryClient.invalidateQueries({ queryKey: connectedAppQueries.all() }),
  });
}

/** Disconnects the connection; the page shows the form again at once. */
export function useDisconnectConnection(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => disconnectConnection(connection.key),
    meta: { toast: false, successToast: connection.disconnectedToast } satisfies ToastMeta,
    onSuccess: () => {
      queryClient.setQueryData<ConnectedApp>(connectedAppQueries.detail(connection.key).queryKey, (app) =>
        app ? { ...app, connected: false, tokenValid: null, mail: null, drive: null } : app,
      );
      return settle(queryClient, connection.key, null);
    },
  });
}
