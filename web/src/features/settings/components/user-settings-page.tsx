import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Switch } from '../../../components/ui/switch';
import { signOut } from '../../../lib/auth';
import { userQueries } from '../../../lib/queries/user-queries';
import { useUpdatePreferences } from '../../../lib/queries/use-update-preferences';
import { afterLogoutTarget } from '../../../lib/variant';
import { ProfileDetails } from '../profile/components/profile-details';
import { ChangePasswordSection } from './change-password-section';
import { EraseAccountSection } from './erase-account-section';
import { SettingsNav } from './settings-nav';

export function UserSettingsPage() {
  const preferences = useQuery(userQueries.preferences());
  const update = useUpdatePreferences();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const handleSignOut = async () => {
    setSigningOut(true);
    await signOut();
    navigate(afterLogoutTarget('default'), { replace: true });
  };

  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading" className="card-title">
          Profile
        </h2>
        <ProfileDetails />
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
