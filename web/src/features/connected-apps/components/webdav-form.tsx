import type { ConnectedApp, DriveConnection } from '../api/apps-api';
import { useWebdavForm } from '../hooks/use-webdav-form';
import { ConnectionForm } from './connection-form';
import { WebdavFileList } from './webdav-file-list';
import { WebdavFields } from './webdav-fields';

export interface WebdavFormProps {
  /** The connection to fill the form from (all but the password), when reconnecting. */
  drive: DriveConnection | null;
  onConnected: (app: ConnectedApp) => void;
  onCancel?: () => void;
}

/**
 * Connects a WebDAV folder in two steps: "Check folder" signs in and lists the files Needl will
 * import (nothing is kept), then "Connect" keeps the folder and the account. The server's refusal
 * (a password it refused, an address it cannot reach or may not ask) is shown under the fields.
 */
export function WebdavForm({ drive, onConnected, onCancel }: WebdavFormProps) {
  const form = useWebdavForm(drive, onConnected);
  return (
    <ConnectionForm
      title={drive ? 'Reconnect your drive' : 'Connect a drive'}
      label="WebDAV folder"
      onSubmit={form.submit}
      checked={form.files !== null}
      checkLabel="Check folder"
      checking={form.checking}
      connecting={form.connecting}
      problems={[form.refusal]}
      onCancel={onCancel}
    >
      <WebdavFields draft={form.draft} errors={form.errors} onChange={form.update} />
      {form.files && <WebdavFileList found={form.files} />}
    </ConnectionForm>
  );
}
