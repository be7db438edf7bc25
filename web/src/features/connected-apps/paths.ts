/** Where each connection is managed, and where its documents are listed. */
export const CONNECT_MAIL_PATH = '/connect/app/email';
export const MAIL_DOCUMENTS_PATH = '/apps/email';
export const CONNECT_WEBDAV_PATH = '/connect/app/webdav';
export const WEBDAV_DOCUMENTS_PATH = '/apps/webdav';
