/** The writes of the WebDAV drive that differ from mail's: its check lists files, and it connects one folder. */
import { checkWebdav, connectWebdav, type ConnectedApp } from '../api/apps-api';
import { WEBDAV } from '../connections';
import { useCheckAccount, useConnectAccount } from './use-connection-mutations';

/** Signs in to the drive and lists the folder's files that Needl would import; records nothing. */
export const useCheckWebdav = () => useCheckAccount(checkWebdav);

/** Connects the folder (see `useConnectAccount`). */
export const useConnectWebdav = (onConnected?: (app: ConnectedApp) => void) => useConnectAccount(WEBDAV, connectWebdav, onConnected);
