/** The user-facing texts of reports, verbatim from the spec (assistant-and-reports §2, §8, §9). */
import { megabytes } from '../../lib/format';

export const FEEDBACK_SUBMITTED = 'Feedback submitted successfully';
export const FEEDBACK_FAILED = 'Failed to submit feedback';
export const COPIED = 'Copied to clipboard';
export const NO_RESPONSE = 'No response available to download';
export const ERROR_TITLE = 'This one is on us and we are looking into it.';
export const ERROR_BODY =
  "Unable to generate the summary at this time. Our team will review this case to improve the system's capabilities. Please try again or proceed manually.";
export const LOADING_NOTE = "This may take up to a few seconds, but it's worth the wait.";
export const UPLOAD_FAILED = 'File(s) upload failed. Please try again.';
export const FOLDER_NOT_ALLOWED = 'Folder upload is not allowed';

/** The file-limit toast stays 2 s; the other upload refusals 3 s. */
export const LIMIT_TOAST_MS = 2000;
export const UPLOAD_TOAST_MS = 3000;

export const tooManyReportFiles = (limit: number) => `Only ${limit} files can be uploaded for a report.`;
export const typeNotAllowed = (name: string, type: string) => `File ${name} type: ${type} not allowed`;
export const sizeExceeded = (name: string, limitBytes: number) =>
  `File ${name} size exceeds the limit of ${megabytes(limitBytes)} MB`;
export const sourceCount = (n: number) => `${n} source(s) processing/added`;
export const removeFailed = (name: string, message: string) => `Error removing file: ${name} ${message}`;
