import { useEffect } from 'react';
import { NavLink, useLocation } from 'react-router';
import { ChannelNavList } from '../../features/channels';
import { FeedNavList } from '../../features/feeds';
import { matches, TABLET_QUERY } from '../../lib/media';
import { carryOverlayParams } from '../../lib/overlay/overlay-params';
import { NavContext } from '../nav-context';

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

/** The side navigation; when closed, a thin strip at the left edge lets it peek on hover. */
export function SideNav() {
  const state = NavContext.useSelector((s) => s.value);
  const nav = NavContext.useActorRef();
  const { search } = useLocation();

  useEffect(() => {
    if (state !== 'peek') return;
    const onMove = (event: MouseEvent) => nav.send({ type: 'nav.hide', x: event.clientX });
    document.addEventListener('mousemove', onMove);
    return () => document.removeEventListener('mousemove', onMove);
  }, [nav, state]);

  return (
    <>
      {state === 'closed' && (
        <div className="nav-peek-zone" data-testid="nav-peek-zone" aria-hidden="true" onMouseEnter={() => nav.send({ type: 'nav.peek' })} />
      )}
      <nav id="side-nav" className="side-nav" aria-label="Main" data-state={state} inert={state === 'closed'}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            N
          </span>
          Needl
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

/** The header button that opens and closes the side navigation. */
export function NavToggle() {
  const state = NavContext.useSelector((s) => s.value);
  const nav = NavContext.useActorRef();
  const expanded = state === 'open' || state === 'opened';
  return (
    <button
      type="button"
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
