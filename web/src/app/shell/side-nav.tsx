import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { XIcon } from '../../components/ui/icons';
import { ChannelNavList } from '../../features/channels';
import { FeedNavList } from '../../features/feeds';
import { LAPTOP_QUERY, matches, TABLET_QUERY, useMediaQuery } from '../../lib/media';
import { carryOverlayParams } from '../../lib/overlay/overlay-params';
import { isNavOpen, NavContext } from '../nav-context';

/** The id of the header's menu button, where focus goes back when the drawer closes. */
const NAV_TOGGLE_ID = 'nav-toggle';

/** The main areas; `nested` ones are the pages of the area above them. */
const LINKS: ReadonlyArray<{ to: string; label: string; nested?: boolean }> = [
  { to: '/feeds/home', label: 'My Data' },
  { to: '/search', label: 'Search' },
  { to: '/settings/feeds', label: 'Feeds' },
  { to: '/channels', label: 'Groups' },
  { to: '/needlbox/bookmarks/all', label: 'Needlbox' },
  { to: '/needlbox/bookmarks/all', label: 'Bookmarks', nested: true },
  { to: '/needlbox/tags/all', label: 'Tags', nested: true },
  { to: '/needlbox/comments/all', label: 'Comments', nested: true },
  { to: '/apps', label: 'Apps' },
  { to: '/notebooks', label: 'Notebooks' },
  { to: '/connect', label: 'Connect' },
];

/**
 * The side navigation; when closed, a thin strip at the left edge lets it peek on hover. Below
 * laptop width it is a drawer over the page instead: a scrim behind it, closed by Escape, the
 * scrim, its close button or going to a page, and focus moved into it and back to the menu button.
 */
export function SideNav() {
  const state = NavContext.useSelector((s) => s.value);
  const nav = NavContext.useActorRef();
  const { search } = useLocation();
  const drawer = !useMediaQuery(LAPTOP_QUERY);
  const drawerOpen = drawer && isNavOpen(state);
  useDrawerFocus(drawerOpen);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      nav.send({ type: 'nav.close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [nav, drawerOpen]);

  useEffect(() => {
    if (state !== 'peek') return;
    const onMove = (event: MouseEvent) => nav.send({ type: 'nav.hide', x: event.clientX });
    document.addEventListener('mousemove', onMove);
    return () => document.removeEventListener('mousemove', onMove);
  }, [nav, state]);

  return (
    <>
      {state === 'closed' && !drawer && (
        <div className="nav-peek-zone" data-testid="nav-peek-zone" aria-hidden="true" onMouseEnter={() => nav.send({ type: 'nav.peek' })} />
      )}
      {drawerOpen && <div className="nav-scrim" data-testid="nav-scrim" aria-hidden="true" onClick={() => nav.send({ type: 'nav.close' })} />}
      <nav
        id="side-nav"
        className="side-nav"
        aria-label="Main"
        data-state={state}
        data-drawer={drawer || undefined}
        inert={state === 'closed' || (drawer && !drawerOpen)}
      >
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            N
          </span>
          Needl
          {drawer && (
            <button type="button" className="icon-button side-nav-close" aria-label="Close navigation" onClick={() => nav.send({ type: 'nav.close' })}>
              <XIcon size={20} />
            </button>
          )}
        </div>
        <ul className="side-nav-list">
          {LINKS.map((link) => (
            <li key={link.label}>
              <NavLink
                to={carryOverlayParams(link.to, search)}
                className={link.nested ? 'side-nav-link side-nav-link-nested' : 'side-nav-link'}
                onClick={() => matches(TABLET_QUERY) && nav.send({ type: 'nav.close' })}
              >
                {link.label}
              </NavLink>
              {link.label === 'Feeds' && (
                <FeedNavList
                  linkTo={(path) => carryOverlayParams(path, search)}
                  onNavigate={() => matches(TABLET_QUERY) && nav.send({ type: 'nav.close' })}
                />
              )}
              {link.to === '/channels' && (
                <ChannelNavList
                  linkTo={(path) => carryOverlayParams(path, search)}
                  onNavigate={() => matches(TABLET_QUERY) && nav.send({ type: 'nav.close' })}
                />
              )}
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

/**
 * Moves focus into the drawer when it opens (its close button) and back to the menu button when it
 * closes, if focus was in the drawer or lost with it (a link followed inside it).
 */
function useDrawerFocus(drawerOpen: boolean) {
  const wasOpen = useRef(drawerOpen);
  useEffect(() => {
    const nav = document.getElementById('side-nav');
    if (drawerOpen && !wasOpen.current) nav?.querySelector<HTMLElement>('.side-nav-close')?.focus();
    if (!drawerOpen && wasOpen.current) {
      const focus = document.activeElement;
      if (!focus || focus === document.body || nav?.contains(focus)) document.getElementById(NAV_TOGGLE_ID)?.focus();
    }
    wasOpen.current = drawerOpen;
  }, [drawerOpen]);
}

/** The header's menu button that opens and closes the side navigation. */
export function NavToggle() {
  const state = NavContext.useSelector((s) => s.value);
  const nav = NavContext.useActorRef();
  const expanded = isNavOpen(state);
  return (
    <button
      type="button"
      id={NAV_TOGGLE_ID}
      className="icon-button nav-toggle"
      aria-controls="side-nav"
      aria-expanded={expanded}
      aria-label={expanded ? 'Close navigation' : 'Open navigation'}
      onClick={() => nav.send({ type: 'nav.toggle' })}
    >
      <span className="hamburger" aria-hidden="true" />
    </button>
  );
}
