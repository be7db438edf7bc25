/** The mail connection's addresses: where it is managed, and where its documents are listed. */
export const CONNECT_MAIL_PATH = '/connect/app/email';
export const MAIL_DOCUMENTS_PATH = '/apps/email';
