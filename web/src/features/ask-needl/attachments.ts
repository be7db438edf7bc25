/**
 * Attachments to a question. The files travel through the app's uploads (source `ask_needl`);
 * the app hands this feature an `AskUploader` over them, so neither feature imports the other.
 * The rules of when files may be added are the spec's, kept pure here.
 */
import { createContext, useContext } from 'react';

export const ASK_UPLOAD_SOURCE = 'ask_needl';

export type AttachmentStatus = 'UPLOADING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'UPLOADING_ERROR' | (string & {});

export interface Attachment {
  id: string;
  name: string;
  status: AttachmentStatus;
  /** 0 to 100 while uploading. */
  progress: number;
  error: string | null;
  /** The document the file became, once COMPLETED. */
  deeplink: string | null;
}

export interface AskUploader {
  /** Every ask upload the app knows of. */
  items: Attachment[];
  /** The server's limit on files at a time; null until known. */
  countLimit: number | null;
  /** Checks the files (type, size) and sends those accepted; returns their upload ids. Refusals are told to the user. */
  upload: (files: File[]) => string[];
  dismiss: (id: string) => void;
}

export const AskUploaderContext = createContext<AskUploader | null>(null);

export const useAskUploader = () => useContext(AskUploaderContext);

export interface DropRules {
  uploadFlag: boolean | undefined;
  webSearch: boolean;
  hasMessages: boolean;
  attachments: readonly Pick<Attachment, 'status'>[];
}

export const allCompleted = (attachments: readonly Pick<Attachment, 'status'>[]) => attachments.every((a) => a.status === 'COMPLETED');

/**
 * Returns whether files may be added now: the upload flag is on, the scope is not web search,
 * the conversation has not begun without attachments, and the files already added are done.
 */
export function canAttach({ uploadFlag, webSearch, hasMessages, attachments }: DropRules): boolean {
  if (!uploadFlag || webSearch) return false;
  if (hasMessages && attachments.length === 0) return false;
  return allCompleted(attachments);
}

/** Returns the count refusal when `adding` more files would pass the limit, else null. */
export function countRefusal(already: number, adding: number, limit: number | null): string | null {
  return limit !== null && already + adding > limit ? `You can only upload ${limit} files at a time` : null;
}
