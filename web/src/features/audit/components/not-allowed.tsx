import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';

/** What someone who is neither an administrator nor an auditor sees at the audit log's address. */
export function NotAllowed() {
  return (
    <EmptyState title="Not allowed">
      <p>Only administrators and auditors can read the audit log. Ask an administrator if you need to see it.</p>
      <p>
        <Link to="/">Go to your home page</Link>
      </p>
    </EmptyState>
  );
}
