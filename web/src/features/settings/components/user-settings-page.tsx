import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { signOut } from '../../../lib/auth';
import { userQueries } from '../../../lib/queries/user-queries';
import { useUpdatePreferences } from '../../../lib/queries/use-update-preferences';
import { ProfileDetailsForm } from '../profile/components/profile-details-form';
import { ChangePasswordSection } from './change-password-section';
import { EraseAccountSection } from './erase-account-section';
import { SettingsNav } from './settings-nav';

export function UserSettingsPage() {
  const profile = useQuery(userQueries.profile());
  const preferences = useQuery(userQueries.preferences());
  const update = useUpdatePreferences();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const handleSignOut = async () => {
    setSigningOut(true);
    await signOut();
    navigate('/', { replace: true });
  };

  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading" className="card-title">
          Profile
        </h2>
        {profile.isPending ? (
          <Spinner label="Loading profile" />
        ) : profile.data ? (
          <div className="stack">
            <dl className="facts">
              <dt>Username</dt>
              <dd data-testid="profile-username">{profile.data.username}</dd>
              <dt>Email</dt>
              <dd data-testid="profile-email">{profile.data.email_id}</dd>
            </dl>
            <ProfileDetailsForm key={profile.data.id} profile={profile.data} />
          </div>
        ) : (
          <p className="form-error" role="alert">
            Your profile could not be loaded.{' '}
            <button type="button" className="button button-quiet" onClick={() => void profile.refetch()}>
              Try again
            </button>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="preferences-heading">
        <h2 id="preferences-heading" className="card-title">
          Preferences
        </h2>
        <Switch
          label="AskNeedl Pro"
          description="Use the deeper research mode for AskNeedl answers."
          checked={preferences.data?.askneedl_pro ?? false}
          disabled={!preferences.data}
          onChange={(askneedl_pro) => update.mutate({ askneedl_pro })}
        />
      </section>

      <ChangePasswordSection />

      <section className="card" aria-labelledby="session-heading">
        <h2 id="session-heading" className="card-title">
          Session
        </h2>
        <button type="button" className="button" onClick={handleSignOut} disabled={signingOut}>
          Sign out
        </button>
      </section>

      {/* Last, away from the everyday controls. */}
      <EraseAccountSection />
    </div>
  );
}
