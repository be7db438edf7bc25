/**
 * Connected apps feature: the apps people bring their own documents in from, as the server lists
 * them (`GET /connect/apps`: which work here, and for those that do not, what is missing and what
 * works instead), and mail over IMAP, the one connected here: /connect/app/email checks an account
 * and lists its folders, connects it with the folders chosen, and shows the connected mailbox
 * with Sync now, Choose folders, Reconnect and Disconnect. Its messages and attachments become
 * documents of the `email` source, which the app lists at /apps/email with the documents feature.
 * It owns the calls under /connect/apps and /connect/mail; server data lives in React Query under
 * `connectedAppQueries`, and the writes refresh the document lists and My Data's counts (their
 * keys are in src/lib/queries). Toasts are declared in mutation `meta` and shown by the app.
 * Depends on: src/lib, src/components/ui.
 */
export { connectedAppQueries, MAIL_APP, type ConnectedApp } from './api/apps-api';
export { ConnectMailPage } from './components/connect-mail-page';
export { MailAppCard } from './components/mail-app-card';
export { CONNECT_MAIL_PATH, MAIL_DOCUMENTS_PATH } from './paths';
