import { Navigate, Route, Routes } from 'react-router';
import { NotebooksPage, NotePreviewPage } from '../features/notebooks';
import { DASHBOARD_PATH } from '../features/reports';
import { lazyPage } from './lazy-page';
import { ComingSoonPage } from './pages/coming-soon-page';
import { LandingRedirect } from './pages/landing-redirect';
import { UnknownPage } from './pages/unknown-page';
import { PulseIndex } from './pulse/pulse-index';
import { PulseLayout } from './pulse/pulse-layout';
import { PublicOnly, RequireAuth } from './session/require-auth';
import { AppShell } from './shell/app-shell';

/*
 * Every page loads its code when first opened (each feature's `pages.ts`, or the app's page that
 * joins features), so the first download is the shell and the page at hand. The notebooks pages
 * load their editor on demand themselves.
 */
const SignInPage = lazyPage('Loading sign-in', () => import('../features/auth/pages').then((m) => m.SignInPage));
const SignUpPage = lazyPage('Loading sign-up', () => import('../features/auth/pages').then((m) => m.SignUpPage));
const ForgotPasswordPage = lazyPage('Loading', () => import('../features/auth/pages').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyPage('Loading', () => import('../features/auth/pages').then((m) => m.ResetPasswordPage));
const OAuthRedirectPage = lazyPage('Signing you in', () => import('../features/auth/pages').then((m) => m.OAuthRedirectPage));
const GroupsPage = lazyPage('Loading groups', () => import('../features/channels/pages').then((m) => m.GroupsPage));
const GroupsSettingsPage = lazyPage('Loading group settings', () =>
  import('../features/channels/pages').then((m) => m.GroupsSettingsPage),
);
const GroupSettingsPage = lazyPage('Loading group settings', () =>
  import('../features/channels/pages').then((m) => m.GroupSettingsPage),
);
const MyDataLayout = lazyPage('Loading My Data', () => import('../features/documents/pages').then((m) => m.MyDataLayout));
const MyDataLanding = lazyPage('Loading My Data', () => import('../features/documents/pages').then((m) => m.MyDataLanding));
const SubCategoryPage = lazyPage('Loading documents', () => import('../features/documents/pages').then((m) => m.SubCategoryPage));
const CustomFeedPage = lazyPage('Loading the feed builder', () => import('../features/feeds/pages').then((m) => m.CustomFeedPage));
const NotificationsPage = lazyPage('Loading notifications', () =>
  import('../features/notifications/pages').then((m) => m.NotificationsPage),
);
const ReportsDashboardPage = lazyPage('Loading reports', () =>
  import('../features/reports/pages').then((m) => m.ReportsDashboardPage),
);
const ReportPage = lazyPage('Loading the report', () => import('../features/reports/pages').then((m) => m.ReportPage));
const SearchPage = lazyPage('Loading search', () => import('../features/search/pages').then((m) => m.SearchPage));
const UserSettingsPage = lazyPage('Loading settings', () => import('../features/settings/pages').then((m) => m.UserSettingsPage));
const StoragePage = lazyPage('Loading storage', () => import('../features/settings/pages').then((m) => m.StoragePage));
const PlanPage = lazyPage('Loading your plan', () => import('../features/settings/pages').then((m) => m.PlanPage));
const UsersPage = lazyPage('Loading users', () => import('../features/settings/pages').then((m) => m.UsersPage));
const AssistantSettingsPage = lazyPage('Loading assistant settings', () =>
  import('../features/settings/pages').then((m) => m.AssistantSettingsPage),
);
const PortfoliosPage = lazyPage('Loading portfolios', () =>
  import('../features/settings/portfolios/pages').then((m) => m.PortfoliosPage),
);
const PortfolioEditorPage = lazyPage('Loading the portfolio', () =>
  import('../features/settings/portfolios/pages').then((m) => m.PortfolioEditorPage),
);
/** The pulse variant's pages: its profile (with the WhatsApp number), verifying that number, its portfolio. */
const PulseProfilePage = lazyPage('Loading your profile', () =>
  import('../features/settings/whatsapp/pages').then((m) => m.PulseProfilePage),
);
const WhatsappVerificationPage = lazyPage('Loading WhatsApp verification', () =>
  import('../features/settings/whatsapp/pages').then((m) => m.WhatsappVerificationPage),
);
const UpdatePortfolioPage = lazyPage('Loading your portfolio', () =>
  import('../features/settings/portfolios/pages').then((m) => m.UpdatePortfolioPage),
);
const OutboxPage = lazyPage('Loading the outbox', () => import('../features/settings/pages').then((m) => m.OutboxPage));
const StorageFilesPage = lazyPage('Loading your files', () =>
  import('../features/settings/storage/pages').then((m) => m.StorageFilesPage),
);
const EmptyStoragePage = lazyPage('Loading storage', () => import('../features/settings/storage/pages').then((m) => m.EmptyStoragePage));
const OnboardingPage = lazyPage('Loading onboarding', () => import('../features/settings/onboarding/pages').then((m) => m.OnboardingPage));
const ConnectPage = lazyPage('Loading sources', () => import('../features/sources').then((m) => m.ConnectPage));
const ConnectRssPage = lazyPage('Loading RSS feeds', () => import('../features/sources').then((m) => m.ConnectRssPage));
const RssTopicsPage = lazyPage('Loading RSS topics', () => import('../features/sources').then((m) => m.RssTopicsPage));
const CataloguePage = lazyPage('Loading public sources', () => import('../features/sources').then((m) => m.CataloguePage));
const ConnectWebsitePage = lazyPage('Loading websites', () => import('../features/sources').then((m) => m.ConnectWebsitePage));
const FollowedWebsitesPage = lazyPage('Loading websites', () =>
  import('../features/sources').then((m) => m.FollowedWebsitesPage),
);
const EdgarPage = lazyPage('Loading SEC filings', () => import('../features/sources').then((m) => m.EdgarPage));
const FeedSettingsPage = lazyPage('Loading feed settings', () => import('./pages/feed-settings-page').then((m) => m.FeedSettingsPage));
const FeedSourcePage = lazyPage('Loading the feed', () => import('./pages/feed-page').then((m) => m.FeedSourcePage));
const AskNeedlFullPage = lazyPage('Loading AskNeedl', () => import('./pages/ask-needl-pages').then((m) => m.AskNeedlFullPage));
const AskNeedlHistory = lazyPage('Loading AskNeedl history', () => import('./pages/ask-needl-pages').then((m) => m.AskNeedlHistory));
const BookmarksPage = lazyPage('Loading bookmarks', () => import('./pages/bookmarks-page').then((m) => m.BookmarksPage));
const ChannelPage = lazyPage('Loading the group', () => import('./pages/channel-page').then((m) => m.ChannelPage));
const CommentsPage = lazyPage('Loading comments', () => import('./pages/comments-page').then((m) => m.CommentsPage));
const ContactsPage = lazyPage('Loading contacts', () => import('./pages/contacts-page').then((m) => m.ContactsPage));
const ManageTagsPage = lazyPage('Loading tags', () => import('./pages/manage-tags-page').then((m) => m.ManageTagsPage));
const NeedlboxSourcePage = lazyPage('Loading documents', () => import('./pages/needlbox-page').then((m) => m.NeedlboxSourcePage));
const TaggedDocumentsPage = lazyPage('Loading tagged documents', () =>
  import('./pages/tagged-documents-page').then((m) => m.TaggedDocumentsPage),
);
/** The preview, read in the group its address names (comments). */
const PreviewPage = lazyPage('Loading the preview', () => import('./pages/preview-page').then((m) => m.DocumentPreviewPage));
const AuditPage = lazyPage('Loading the audit log', () => import('./pages/audit-pages').then((m) => m.AuditPage));
const AuditHistoryPage = lazyPage('Loading the history', () => import('./pages/audit-pages').then((m) => m.AuditHistoryPage));
const AppsPage = lazyPage('Loading apps', () => import('./pages/apps-page').then((m) => m.AppsPage));
const AppSourcePage = lazyPage('Loading the app', () => import('./pages/app-source-page').then((m) => m.AppSourcePage));
/** The drive brings the upload panel. */
const DrivePage = lazyPage('Loading Needl Drive', () => import('./pages/drive-page').then((m) => m.DrivePage));
/** The spec's full-page routes: one document, one image, a document link, the extension's landing. */
const FullDocumentPage = lazyPage('Loading the document', () => import('./pages/document-pages').then((m) => m.FullDocumentPage));
const RedirectDocumentPage = lazyPage('Opening the document', () =>
  import('./pages/document-pages').then((m) => m.RedirectDocumentPage),
);
const ImagePage = lazyPage('Loading the image', () => import('./pages/image-page').then((m) => m.ImagePage));
const ExtensionPage = lazyPage('Loading', () => import('./pages/extension-page').then((m) => m.ExtensionPage));

/**
 * Pages the spec names that are not built yet: each says it is coming soon. Any other unknown
 * address is not found.
 */
const PLACEHOLDER_ROUTES = [
  '/feeds',
  '/integrations',
  '/managers',
  '/managers/assistants',
  '/managers/assistants/dashboard',
  '/managers/assistants/builder',
] as const;

const drive = (category: string) => <DrivePage category={category} />;

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/auth" element={<Navigate to="/auth/signin" replace />} />
        <Route path="/auth/signin" element={<SignInPage />} />
        <Route path="/auth/platform-access" element={<SignUpPage />} />
        <Route path="/pulse/auth/signin" element={<SignInPage />} />
        <Route path="/auth/forgot-password" element={<ForgotPasswordPage />} />
      </Route>
      {/* The pulse variant's entry: its profile when signed in, else its sign-in. */}
      <Route path="/pulse" element={<PulseIndex />} />
      {/* A reset link opens whether or not this browser is signed in (it signs it out). */}
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      {/* Where the organisation's sign-in comes back, signed in or not (its token replaces any session here). */}
      <Route path="/oauth" element={<Navigate to="/auth/signin" replace />} />
      <Route path="/oauth/redirect" element={<OAuthRedirectPage />} />
      <Route element={<RequireAuth />}>
        {/* The attributes form as a page, outside the shell; it goes on to `?redirect=` or home. */}
        <Route path="/onboarding" element={<OnboardingPage />} />
        {/* The browser extension's landing: signed in, it says the tab may be closed (or goes on to `?redirect=`). */}
        <Route path="/extension" element={<ExtensionPage />} />
        {/* The pulse variant: its own phone-first layout, no side navigation. */}
        <Route element={<PulseLayout />}>
          <Route path="/pulse/settings/user-settings" element={<PulseProfilePage />} />
          <Route path="/pulse/whatsapp-verification" element={<WhatsappVerificationPage />} />
          <Route path="/pulse/update-portfolio" element={<UpdatePortfolioPage />} />
        </Route>
        <Route element={<AppShell />}>
          <Route index element={<LandingRedirect />} />
          {/* The landing route by name: where the user's first enabled feature lands. */}
          <Route path="/home" element={<LandingRedirect />} />
          <Route path="/settings" element={<Navigate to="/settings/user-settings" replace />} />
          <Route path="/settings/user-settings" element={<UserSettingsPage />} />
          <Route path="/settings/storage" element={<StoragePage />} />
          {/* An app's stored files of one type (`/settings/storage/needldrive/application%2Fpdf`), and the empty storage. */}
          <Route path="/settings/storage/empty" element={<EmptyStoragePage />} />
          <Route path="/settings/storage/:app/:type" element={<StorageFilesPage />} />
          {/* The breadcrumb between them: the storage page lists every type. */}
          <Route path="/settings/storage/:app" element={<Navigate to="/settings/storage" replace />} />
          <Route path="/settings/plan" element={<PlanPage />} />
          <Route path="/settings/users" element={<UsersPage />} />
          <Route path="/settings/assistant" element={<AssistantSettingsPage />} />
          {/* Messages kept for an administrator to pass on while no messaging provider is set up. */}
          <Route path="/settings/outbox" element={<OutboxPage />} />
          {/* The user's portfolios; `?id=` on the create page edits one. */}
          <Route path="/settings/portfolios" element={<PortfoliosPage />} />
          <Route path="/settings/portfolios/create-portfolio" element={<PortfolioEditorPage />} />
          {/* The audit log, for administrators and auditors (others are told they may not read it). */}
          <Route path="/settings/audit" element={<AuditPage />} />
          <Route path="/settings/audit/history" element={<AuditHistoryPage />} />
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
          {/* Full pages the shell shows bare (nav-routes.ts): one document (`?deeplink=&source=`, or the
              app's own address as `?url=`) and one image (`?src=`). */}
          <Route path="/document" element={<FullDocumentPage />} />
          <Route path="/image" element={<ImagePage />} />
          {/* A document link (`?deeplink=&source=`) on to its preview. */}
          <Route path="/redirect/document" element={<RedirectDocumentPage />} />
          <Route path="/ask-needl/full" element={<AskNeedlFullPage />} />
          <Route path="/ask-needl/history" element={<AskNeedlHistory />} />
          {/* /search/{subCategory}, /search/today (the current feed) and /search/{source}: one page reads the scope. */}
          <Route path="/search" element={<SearchPage />} />
          {/* The search on its own, bare of the navigation (nav-routes.ts). */}
          <Route path="/search/full" element={<SearchPage />} />
          <Route path="/search/:scope" element={<SearchPage />} />
          <Route path="/connect" element={<ConnectPage />} />
          <Route path="/connect/rss" element={<ConnectRssPage />} />
          <Route path="/connect/rssTopics" element={<RssTopicsPage />} />
          <Route path="/connect/public" element={<CataloguePage />} />
          <Route path="/connect/website" element={<ConnectWebsitePage />} />
          <Route path="/connect/website/followed" element={<FollowedWebsitesPage />} />
          <Route path="/connect/edgar" element={<EdgarPage />} />
          {/* The apps: the drive, AskNeedl attachments, and what cannot be connected here with the way in instead. */}
          <Route path="/connect/app" element={<Navigate to="/apps" replace />} />
          <Route path="/connect/app/:app" element={<AppSourcePage />} />
          <Route path="/apps" element={<AppsPage />} />
          <Route path="/apps/needldrive" element={drive('apps')} />
          <Route path="/apps/needldrive/:subCategory" element={drive('apps')} />
          <Route path="/apps/:source" element={<AppSourcePage />} />
          <Route path="/apps/:source/:subCategory" element={<AppSourcePage />} />
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
          {/* An unknown address; under /settings, the settings catch-all (see UnknownPage). */}
          <Route path="*" element={<UnknownPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
