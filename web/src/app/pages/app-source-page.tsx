import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { ASK_UPLOAD_SOURCE } from '../../features/ask-needl';
import { DocumentList } from '../../features/documents';
import { titleFromSourceKey } from '../../lib/format';
import { ADD_RSS, FOLLOW_WEBSITE, unconnectedApp, UPLOAD } from './apps-catalogue';

/**
 * /apps/{source} (and /connect/app/{source}): AskNeedl attachments list their documents; an app
 * that cannot be connected here says so, with the way its documents get in today. (The drive has
 * its own routes.)
 */
export function AppSourcePage() {
  const { source, app: connectKey } = useParams();
  const key = source ?? connectKey ?? '';
  if (key === ASK_UPLOAD_SOURCE) {
    return (
      <div className="page-narrow">
        <DocumentList
          source={ASK_UPLOAD_SOURCE}
          category="apps"
          empty={
            <EmptyState title="No attachments yet">
              <p>Files you attach to a question in AskNeedl are kept here.</p>
            </EmptyState>
          }
        />
      </div>
    );
  }
  const app = unconnectedApp(key);
  const name = app?.name ?? titleFromSourceKey(key);
  const ways = app?.ways ?? [UPLOAD, ADD_RSS, FOLLOW_WEBSITE];
  return (
    <EmptyState title={`${name} is not connected on this instance`}>
      <p>{app?.instead ?? 'Needl cannot connect to this app here. Upload its files to Needl Drive, or follow its RSS feed or website.'}</p>
      <p className="empty-state-actions">
        {ways.map((way) => (
          <Link key={way.to} to={way.to}>
            {way.label}
          </Link>
        ))}
        <Link to="/apps">See all apps</Link>
      </p>
    </EmptyState>
  );
}
