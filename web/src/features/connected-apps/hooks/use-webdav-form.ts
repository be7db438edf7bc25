import type { ConnectedApp, DriveConnection } from '../api/apps-api';
import { checkWebdavDraft, EMPTY_WEBDAV_DRAFT, webdavAccountOf, webdavDraftOf } from '../webdav-account';
import { useConnectionForm } from './use-connection-form';
import { useCheckWebdav, useConnectWebdav } from './use-webdav-mutations';

/**
 * The WebDAV form's flow (`useConnectionForm`): the check lists the folder's files that Needl
 * will import, and the folder is connected as checked. `drive`, when given, fills the form (all
 * but the password).
 */
export function useWebdavForm(drive: DriveConnection | null, onConnected: (app: ConnectedApp) => void) {
  const check = useCheckWebdav();
  const connect = useConnectWebdav(onConnected);
  const form = useConnectionForm({
    initial: () => (drive ? webdavDraftOf(drive) : EMPTY_WEBDAV_DRAFT),
    validate: checkWebdavDraft,
    accountOf: webdavAccountOf,
    check,
    connect,
    onConnect: (account) => connect.mutate(account),
  });
  return { ...form, files: form.listed };
}
