/**
 * Reads what was dropped: plain files, and the files inside dropped folders when folders are
 * allowed. The entries must be taken while the drop event runs (the browser empties the
 * DataTransfer afterwards); reading folders happens after.
 */

export interface DroppedEntries {
  /** Files dropped as files. */
  files: File[];
  /** Folders dropped, as file-system entries (read later, if allowed). */
  folders: FileSystemDirectoryEntry[];
}

/** Takes the dropped files and folders out of the event's DataTransfer; call it synchronously. */
export function takeDropped(data: DataTransfer): DroppedEntries {
  const files: File[] = [];
  const folders: FileSystemDirectoryEntry[] = [];
  const items = Array.from(data.items ?? []);
  if (items.length === 0 || typeof items[0].webkitGetAsEntry !== 'function') {
    return { files: Array.from(data.files ?? []), folders };
  }
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry?.isDirectory) {
      folders.push(entry as FileSystemDirectoryEntry);
    } else {
      const file = item.getAsFile();
      if (file) files.push(file);
    }
  }
  return { files, folders };
}

const readBatch = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Returns every file under `folder`, depth first (readEntries answers in batches until empty). */
export async function filesInFolder(folder: FileSystemDirectoryEntry): Promise<File[]> {
  const reader = folder.createReader();
  const files: File[] = [];
  for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) {
    for (const entry of batch) {
      if (entry.isDirectory) files.push(...(await filesInFolder(entry as FileSystemDirectoryEntry)));
      else if (entry.isFile) files.push(await fileOf(entry as FileSystemFileEntry));
    }
  }
  return files;
}
