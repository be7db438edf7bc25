import { Navigate, Route, Routes } from 'react-router';
import { SignInPage, SignUpPage } from '../features/auth';
import { DocumentsPage, PreviewPage } from '../features/documents';
import { UserSettingsPage } from '../features/settings';
import { ConnectPage, ConnectRssPage } from '../features/sources';
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
          <Route path="/feeds/home" element={<DocumentsPage />} />
          <Route path="/feeds/home/:suffix" element={<DocumentsPage />} />
          <Route path="/feeds/:source" element={<DocumentsPage />} />
          <Route path="/feeds/:source/:subCategory" element={<DocumentsPage />} />
          <Route path="/preview/:category/:deeplink" element={<PreviewPage />} />
          <Route path="/connect" element={<ConnectPage />} />
          <Route path="/connect/rss" element={<ConnectRssPage />} />
          <Route path="*" element={<ComingSoonPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
