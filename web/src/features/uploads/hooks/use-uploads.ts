import { createContext, useContext } from 'react';
import type { PendingFile } from '../run-upload';
import type { UploadItem } from '../upload-state';

/** The app's uploads: every file on its way or finished and not yet dismissed, of every source. */
export interface Uploads {
  items: UploadItem[];
  /** Sends files already checked against the source's limits, as one batch. */
  start: (source: string, files: PendingFile[]) => void;
  dismiss: (id: string) => void;
  /** Clears the finished files of one source. */
  clearFinished: (source: string) => void;
}

export const UploadsContext = createContext<Uploads | null>(null);

/** Returns the app's uploads; the app provides them (UploadsProvider) so they outlive any page. */
export function useUploads(): Uploads {
  const uploads = useContext(UploadsContext);
  if (!uploads) throw new Error('useUploads must be used inside an UploadsProvider');
  return uploads;
}
