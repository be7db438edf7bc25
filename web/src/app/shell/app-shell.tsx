import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AskButton, AskNeedlProvider } from '../../features/ask-needl';
import { CardComments, ShareToGroup } from '../../features/channels';
import { AddToFeeds, TopicFeedback } from '../../features/feeds';
import { AddToNotesButton } from '../../features/notebooks';
import { CardContact } from '../../features/people';
import { CardTagActions, CardTags } from '../../features/tags';
import { UploadsProvider } from '../../features/uploads';
import { CardActionsProvider, type CardAction } from '../../lib/card-actions';
import { CardDetailsProvider, type CardDetail } from '../../lib/card-details';
import { featureQueries } from '../../lib/queries/feature-queries';
import { userQueries } from '../../lib/queries/user-queries';
import { LAPTOP_QUERY, useMediaQuery } from '../../lib/media';
import { ErrorBoundary } from '../error-screen';
import { isNavOpen, NavContext } from '../nav-context';
import { isFullPage } from '../nav-routes';
import { OverlayHost } from '../overlays/overlay-host';
import { PlanPromptHost } from '../plan-prompt-host';
import { useLiveUpdates } from '../session/use-live-updates';
import { FullPageBar } from './full-page-bar';
import { Header } from './header';
import { NavProvider } from './nav-provider';
import { SideNav } from './side-nav';
import { UnknownAddressProvider, useShowsSideNav } from './unknown-address';

/** What other features add to document cards. */
const CARD_ACTIONS: readonly CardAction[] = [CardTagActions, AddToNotesButton, ShareToGroup, AddToFeeds, TopicFeedback, CardComments];
/** What other features show under a document card's text. */
const CARD_DETAILS: readonly CardDetail[] = [CardTags, CardContact];

/**
 * The signed-in layout: side navigation, header, the page, and the overlay. Uploads are held
 * here, above the pages, so they go on (and show in the header) wherever the user goes. The
 * bare full pages (nav-routes.ts) keep all of it but the navigation, the header and the Ask
 * button: a bar with the way back stands over the page instead.
 */
export function AppShell() {
  return (
    <UnknownAddressProvider>
      <ShellLayout />
    </UnknownAddressProvider>
  );
}

function ShellLayout() {
  const { pathname } = useLocation();
  const withNav = useShowsSideNav();
  const live = useLiveUpdates();
  const fullPage = isFullPage(pathname);
  const queryClient = useQueryClient();

  useEffect(() => {
    void queryClient.prefetchQuery(featureQueries.config());
    void queryClient.prefetchQuery(userQueries.profile());
  }, [queryClient]);

  return (
    <UploadsProvider>
      <AskNeedlProvider>
        <NavProvider>
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <div className="shell">
            {withNav && <SideNav />}
            <ShellMain>
              {fullPage ? <FullPageBar /> : <Header liveStatus={live} />}
              <main id="main" className="content" tabIndex={-1}>
                <ErrorBoundary key={pathname}>
                  <CardActionsProvider value={CARD_ACTIONS}>
                    <CardDetailsProvider value={CARD_DETAILS}>
                      <Outlet />
                    </CardDetailsProvider>
                  </CardActionsProvider>
                </ErrorBoundary>
              </main>
            </ShellMain>
            <OverlayHost />
            {!fullPage && <AskButton />}
            <PlanPromptHost />
          </div>
        </NavProvider>
      </AskNeedlProvider>
    </UploadsProvider>
  );
}

/** The header and the page; while the navigation is an open drawer over them, out of reach (inert). */
function ShellMain({ children }: { children: ReactNode }) {
  const drawer = !useMediaQuery(LAPTOP_QUERY);
  const open = NavContext.useSelector((s) => isNavOpen(s.value));
  const withNav = useShowsSideNav();
  return (
    <div className="shell-main" inert={drawer && withNav && open}>
      {children}
    </div>
  );
}
