import { WEBDAV } from '../connections';
import { ConnectionPage } from './connection-page';
import { WebdavConnectionSummary } from './webdav-connection-summary';
import { WebdavForm } from './webdav-form';

/**
 * /connect/app/webdav: connects a folder of a WebDAV drive (the form), or shows the connected one
 * with its last sync and failure, and the ways to sync, reconnect or disconnect it.
 */
export function ConnectWebdavPage() {
  return (
    <ConnectionPage
      connection={WEBDAV}
      intro="Needl watches one folder of a WebDAV drive — Nextcloud, ownCloud, a NAS — and imports the PDF, Word, Excel, PowerPoint, text and HTML files in it; files added or changed later come in at the next sync, every few minutes."
      stateOf={(app) => app.drive}
      summary={(app, drive, controls) => <WebdavConnectionSummary app={app} drive={drive} {...controls} />}
      form={(drive, controls) => <WebdavForm drive={drive} {...controls} />}
    />
  );
}
