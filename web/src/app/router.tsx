import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { SignInPage, SignUpPage } from '../features/auth';
import { GroupSettingsPage, GroupsPage, GroupsSettingsPage } from '../features/channels';
import { MyDataLanding, MyDataLayout, PreviewPage, SubCategoryPage } from '../features/documents';
import { CustomFeedPage } from '../features/feeds';
import { NotebooksPage, NotePreviewPage } from '../features/notebooks';
import { NotificationsPage } from '../features/notifications';
import { DASHBOARD_PATH, ReportPage, ReportsDashboardPage } from '../features/reports';
import { SearchPage } from '../features/search';
import { AssistantSettingsPage, StoragePage, UserSettingsPage } from '../features/settings';
import { FeedSettingsPage } from './pages/feed-settings-page';
import { FeedSourcePage } from './pages/feed-page';
import {
  ConnectPage,
  ConnectRssPage,
  ConnectWebsitePage,
  FollowedWebsitesPage,
  RssTopicsPage,
} from '../features/sources';
import { AskNeedlFullPage, AskNeedlHistory } from './pages/ask-needl-pages';
import { BookmarksPage } from './pages/bookmarks-page';
import { ChannelPage } from './pages/channel-page';
import { ComingSoonPage } from './pages/coming-soon-page';
import { CommentsPage } from './pages/comments-page';
import { LandingRedirect } from './pages/landing-redirect';
import { NotFoundPage } from './pages/not-found-page';
import { ContactsPage } from './pages/contacts-page';
import { ManageTagsPage } from './pages/manage-tags-page';
import { NeedlboxSourcePage } from './pages/needlbox-page';
import { TaggedDocumentsPage } from './pages/tagged-documents-page';
import { PublicOnly, RequireAuth } from './session/require-auth';
import { AppShell } from './shell/app-shell';

/**
 * Pages the spec names that are not built yet: each says it is coming soon. Any other unknown
 * address is not found.
 */
const PLACEHOLDER_ROUTES = [
  '/apps',
  '/apps/:source',
  '/apps/:source/:subCategory',
  '/feeds',
  '/integrations',
  '/connect/app',
  '/connect/app/:app',
  '/managers',
  '/managers/assistants',
  '/managers/assistants/dashboard',
  '/managers/assistants/builder',
  '/settings/portfolios',
  '/settings/portfolios/create-portfolio',
] as const;

/** The drive brings the upload panel; it loads when first opened. */
const DrivePage = lazy(() => import('./pages/drive-page').then((m) => ({ default: m.DrivePage })));
const drive = (category: string) => (
  <Suspense fallback={<Spinner label="Loading Needl Drive" />}>
    <DrivePage category={category} />
  </Suspense>
);

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
          <Route path="/settings/storage" element={<StoragePage />} />
          <Route path="/settings/assistant" element={<AssistantSettingsPage />} />
          <Route path="/settings/manage-tags" element={<ManageTagsPage />} />
          <Route path="/settings/contacts" element={<ContactsPage />} />
          <Route path="/settings/contacts/:peopleId" element={<ContactsPage />} />
          <Route path="/notifications" element={<NotificationsPage />} />
          {/* Group settings; the pseudo id `create group` (URL-encoded) makes a new group. */}
          <Route path="/settings/channels" element={<GroupsSettingsPage />} />
          <Route path="/settings/channels/:channelId" element={<GroupSettingsPage />} />
          <Route path="/settings/channels/:channelId/members" element={<GroupSettingsPage tab="members" />} />
          <Route path="/settings/channels/:channelId/feeds" element={<GroupSettingsPage tab="feeds" />} />
          <Route path="/channels" element={<GroupsPage />} />
          <Route path="/channels/:source" element={<ChannelPage />} />
          <Route path="/channels/:source/:subCategory" element={<ChannelPage />} />
          <Route path="/feeds/home" element={<MyDataLayout />}>
            <Route index element={<MyDataLanding />} />
            <Route path="drives" element={drive('feeds')} />
            <Route path=":suffix" element={<SubCategoryPage />} />
          </Route>
          {/* A source's documents, or one of the user's custom feeds (its documents, sub-tabs and comments). */}
          <Route path="/feeds/:source" element={<FeedSourcePage />} />
          <Route path="/feeds/:source/:subCategory" element={<FeedSourcePage />} />
          <Route path="/custom-feed" element={<CustomFeedPage />} />
          <Route path="/settings/feeds" element={<FeedSettingsPage />} />
          <Route path="/settings/feeds/root" element={<FeedSettingsPage />} />
          <Route path="/notebooks" element={<NotebooksPage />} />
          <Route path="/preview/needl_notebooks/:noteId" element={<NotePreviewPage />} />
          <Route path="/preview/:category/:deeplink" element={<PreviewPage />} />
          <Route path="/ask-needl/full" element={<AskNeedlFullPage />} />
          <Route path="/ask-needl/history" element={<AskNeedlHistory />} />
          {/* /search/{subCategory}, /search/today (the current feed) and /search/{source}: one page reads the scope. */}
          <Route path="/search" element={<SearchPage />} />
          <Route path="/search/:scope" element={<SearchPage />} />
          <Route path="/connect" element={<ConnectPage />} />
          <Route path="/connect/rss" element={<ConnectRssPage />} />
          <Route path="/connect/rssTopics" element={<RssTopicsPage />} />
          <Route path="/connect/website" element={<ConnectWebsitePage />} />
          <Route path="/connect/website/followed" element={<FollowedWebsitesPage />} />
          <Route path="/apps/needldrive" element={drive('apps')} />
          {/* /apps/{source}/{subCategory}: the drive is the one app so far; the others are placeholders below. */}
          <Route path="/apps/needldrive/:subCategory" element={drive('apps')} />
          {/* Bookmarks and tags (the tags feature); comments (the channels feature). */}
          <Route path="/needlbox/bookmarks/all" element={<BookmarksPage />} />
          <Route path="/needlbox/bookmarks/*" element={<Navigate to="/needlbox/bookmarks/all" replace />} />
          <Route path="/needlbox/tags/all" element={<TaggedDocumentsPage />} />
          <Route path="/needlbox/tags/*" element={<Navigate to="/needlbox/tags/all" replace />} />
          <Route path="/needlbox/comments" element={<CommentsPage />} />
          <Route path="/needlbox/comments/all" element={<CommentsPage />} />
          <Route path="/needlbox/comments/*" element={<Navigate to="/needlbox/comments/all" replace />} />
          <Route path="/needlbox/:source" element={<NeedlboxSourcePage drive={drive('needlbox')} />} />
          <Route path="/needlbox/:source/:subCategory" element={<NeedlboxSourcePage drive={drive('needlbox')} />} />
          <Route path="/managers/report_generation/dashboard" element={<ReportsDashboardPage />} />
          <Route path="/managers/report" element={<Navigate to={DASHBOARD_PATH} replace />} />
          <Route path="/report" element={<Navigate to={DASHBOARD_PATH} replace />} />
          <Route path="/report/:id" element={<ReportPage />} />
          {PLACEHOLDER_ROUTES.map((path) => (
            <Route key={path} path={path} element={<ComingSoonPage />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
