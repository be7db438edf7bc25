import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../../components/ui/spinner';
import { userQueries } from '../../../../lib/queries/user-queries';
import { ProfileDetailsForm } from './profile-details-form';

/**
 * The signed-in user's profile, for a page's profile section: the username and email, then the
 * form for the rest; a spinner while it loads, and Try again when it could not be.
 */
export function ProfileDetails() {
  const profile = useQuery(userQueries.profile());
  if (profile.isPending) return <Spinner label="Loading profile" />;
  if (!profile.data) {
    return (
      <p className="form-error" role="alert">
        Your profile could not be loaded.{' '}
        <button type="button" className="button button-quiet" onClick={() => void profile.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  return (
    <div className="stack">
      <dl className="facts">
        <dt>Username</dt>
        <dd data-testid="profile-username">{profile.data.username}</dd>
        <dt>Email</dt>
        <dd data-testid="profile-email">{profile.data.email_id}</dd>
      </dl>
      <ProfileDetailsForm key={profile.data.id} profile={profile.data} />
    </div>
  );
}
