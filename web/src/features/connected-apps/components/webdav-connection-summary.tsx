import type { ConnectedApp, DriveConnection } from '../api/apps-api';
import { WEBDAV } from '../connections';
import { ConnectionSummary, type SummaryControls } from './connection-summary';

export interface WebdavConnectionSummaryProps extends SummaryControls {
  app: ConnectedApp;
  drive: DriveConnection;
}

/** The connected drive (`ConnectionSummary`): the folder watched and the account that reads it. */
export function WebdavConnectionSummary({ drive, ...props }: WebdavConnectionSummaryProps) {
  return (
    <ConnectionSummary
      {...props}
      connection={WEBDAV}
      state={drive}
      subject={drive.url}
      details={[
        ['Folder address', drive.url],
        ['Account', drive.username],
      ]}
    />
  );
}
