/**
 * Connected apps feature: the apps people bring their own documents in from, as the server lists
 * them (`GET /connect/apps`: which work here, and for those that do not, what is missing and what
 * works instead), and the two connected here. Mail over IMAP: /connect/app/email checks an
 * account and lists its folders, connects it with the folders chosen, and shows the connected
 * mailbox with Sync now, Choose folders, Reconnect and Disconnect. A WebDAV drive:
 * /connect/app/webdav checks a folder and lists the files Needl will import, connects it, and
 * shows it with Sync now, Reconnect and Disconnect. What the two share (the two-step form, the
 * account fields, the summary, the sync watch, the disconnect dialog, the apps page's card) takes
 * a `Connection` (connections.ts) saying what each is called and where it lives. Their documents
 * are of the `email` and `webdav` sources, which the app lists at /apps/email and /apps/webdav with
 * the documents feature. It owns the calls under /connect/apps, /connect/mail and /connect/webdav;
 * server data lives in React Query under `connectedAppQueries`, and the writes refresh the
 * document lists and My Data's counts (their keys are in src/lib/queries). Toasts are declared in
 * mutation `meta` and shown by the app.
 * Depends on: src/lib, src/components/ui.
 */
export { connectedAppQueries, MAIL_APP, WEBDAV_APP, type ConnectedApp } from './api/apps-api';
export { ConnectMailPage } from './components/connect-mail-page';
export { ConnectWebdavPage } from './components/connect-webdav-page';
export { ConnectedAppCard } from './components/connected-app-card';
export { CONNECTIONS, MAIL, WEBDAV, type Connection } from './connections';
export { CONNECT_MAIL_PATH, CONNECT_WEBDAV_PATH, MAIL_DOCUMENTS_PATH, WEBDAV_DOCUMENTS_PATH } from './paths';
