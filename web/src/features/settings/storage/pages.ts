/**
 * Storage, a part of the settings feature: beside /settings/storage (usage by file type, in
 * components/), the files of one type an app keeps (/settings/storage/{app}/{type}; only Needl
 * Drive keeps files, read from its document list and filtered by type here, as the server has no
 * such filter) and the empty-storage page (/settings/storage/empty). This file is the entry the
 * app loads on demand.
 * Depends on: src/lib, src/components/ui, and the settings feature's tabs and storage usage.
 */
export { StorageFilesPage } from './components/storage-files-page';
export { EmptyStoragePage } from './components/empty-storage-page';
