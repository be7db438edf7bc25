/** The storage pages' addresses. */
export const STORAGE_PATH = '/settings/storage';
export const EMPTY_STORAGE_PATH = '/settings/storage/empty';

/** The app whose files the storage counts: Needl Drive, where uploads go. */
export const DRIVE_APP = 'needldrive';
export const DRIVE_PATH = '/apps/needldrive';

/**
 * Returns the address of an app's files of one mime type, e.g.
 * `/settings/storage/needldrive/application%2Fpdf` (the type's slash is kept in its segment).
 */
export const storageFilesPath = (mimeType: string, app: string = DRIVE_APP) =>
  `${STORAGE_PATH}/${encodeURIComponent(app)}/${encodeURIComponent(mimeType)}`;
