import { Navigate, Route, Routes } from 'react-router';
import { SignInPage, SignUpPage } from '../features/auth';
import { UserSettingsPage } from '../features/settings';
import { ComingSoonPage } from './pages/coming-soon-page';
import { LandingRedirect } from './pages/landing-redirect';
import { PublicOnly, RequireAuth } from './session/require-auth';
import { AppShell } from './shell/app-shell';

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/auth" element={<Navigate to="/auth/signin" replace />} />
        <Route path="/auth/signin" element={<SignInPage />} />
        <Route path="/auth/platform-access" element={<SignUpPage />} />
        <Route path="/pulse/auth/signin" element={<SignInPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppShell />}>
          <Route index element={<LandingRedirect />} />
          <Route path="/settings" element={<Navigate to="/settings/user-settings" replace />} />
          <Route path="/settings/user-settings" element={<UserSettingsPage />} />
          <Route path="*" element={<ComingSoonPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
