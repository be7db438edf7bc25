import { formatFileSize } from '../../../lib/format';
import type { WebdavFile } from '../api/apps-api';

/** How many files the list shows; a folder of more says how many it left out. */
export const FILES_SHOWN = 100;

const files = (count: number) => (count === 1 ? '1 file' : `${count.toLocaleString()} files`);

/** What the check found in the folder: the files Needl will import, with their sizes, or that there are none yet. */
export function WebdavFileList({ found }: { found: readonly WebdavFile[] }) {
  if (found.length === 0) {
    return (
      <p role="status" className="small">
        The folder has no files Needl imports yet. Connect it anyway: files added to it later come in at the next sync.
      </p>
    );
  }
  const shown = found.slice(0, FILES_SHOWN);
  const left = found.length - shown.length;
  return (
    <>
      <p role="status" className="small">
        The folder has {files(found.length)} Needl will import.
      </p>
      <ul className="webdav-files" aria-label="Files in the folder">
        {shown.map((file) => (
          <li key={file.name}>
            <span className="webdav-file-name">{file.name}</span>
            <span className="small muted">{formatFileSize(file.size)}</span>
          </li>
        ))}
      </ul>
      {left > 0 && <p className="small muted">{left === 1 ? 'And 1 more file.' : `And ${left.toLocaleString()} more files.`}</p>}
    </>
  );
}
