import { Link } from 'react-router';
import { FollowWebsiteForm } from './follow-website-form';

/** /connect/website: follow a site by its address. */
export function ConnectWebsitePage() {
  return (
    <div className="page-narrow stack-lg">
      <FollowWebsiteForm />
      <p>
        <Link to="/connect/website/followed">Manage followed websites</Link>
      </p>
    </div>
  );
}
