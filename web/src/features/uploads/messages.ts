/** The user-facing messages of uploads, verbatim from the spec. */
import { megabytes } from '../../lib/format';

export const UPLOAD_BUTTON = 'Upload File(s)';
export const DROP_HINT = 'Drop files here';
export const UPLOAD_FAILED = 'File(s) upload failed. Please try again.';
/** Upload toasts (refusals and failures) stay 3 s. */
export const UPLOAD_TOAST_MS = 3000;
export const FOLDER_NOT_ALLOWED = 'Folder upload is not allowed';
/** The per-file error when no upload link could be had. */
export const INIT_FAILED = 'Error getting upload configs';
/** The per-file error when the transfer itself failed. */
export const TRANSFER_FAILED = 'Error uploading files';

export const typeNotAllowed = (name: string, type: string) => `File ${name} type: ${type} not allowed`;
export const sizeExceeded = (name: string, limitBytes: number) =>
  `File ${name} size exceeds the limit of ${megabytes(limitBytes)} MB`;
export const suffixRequired = (name: string, suffixes: string[]) =>
  `File ${name} name should end with one of the following suffixes: ${suffixes.join(', ')}`;
export const tooManyFiles = (limit: number) => `You can only upload ${limit} files at a time`;
