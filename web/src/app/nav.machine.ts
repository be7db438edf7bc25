/**
 * The side navigation: states open, opened, close, closed and peek, as the spec sets them.
 * `open` and `close` are the animated states the user or an overlay causes; `opened` and `closed`
 * are the resting states a page starts in. `close` settles into `closed` after 500 ms.
 *
 * Below laptop width the navigation is a drawer over the page (issue 18): it starts closed
 * whatever the saved `nav_state` says, closes when the screen narrows to that width, and the
 * user's opening and closing it there is not saved (the preference is the desktop's choice).
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { showsSideNav } from './nav-routes';

export type NavState = 'open' | 'opened' | 'close' | 'closed' | 'peek';

/** Width of the navigation in px; the mouse must go 16 px beyond it to hide a peek. */
export const NAV_WIDTH = 240;
export const PEEK_HIDE_MARGIN = 16;
export const NAV_CLOSE_DELAY_MS = 500;
/** An overlay wider than this (percent of the screen) leaves no room for the navigation. */
export const MAX_OVERLAY_WIDTH_WITH_NAV = 80;

export interface NavInput {
  pathname: string;
  isTablet: boolean;
  isLaptopUp: boolean;
  /** A state asked for from outside (the saved preference): open becomes opened, close closed. */
  initial?: 'open' | 'opened' | 'close' | 'closed' | null;
}

export interface NavContext {
  pathname: string;
  /** Whether the page shows the navigation: its area does, or the address is unknown. */
  showsNav: boolean;
  isLaptopUp: boolean;
  navWidth: number;
  overlayOpen: boolean;
  /** Width of the open overlay in percent of the screen. */
  overlayWidth: number;
  /** Whether the open overlay closed the navigation, so closing it should reopen the navigation. */
  closedByOverlay: boolean;
}

export type NavEvent =
  | { type: 'nav.toggle' }
  | { type: 'nav.close' }
  | { type: 'nav.open' }
  | { type: 'nav.peek' }
  | { type: 'nav.hide'; x: number }
  /** `showsNav` defaults to whether the path's area shows the navigation. */
  | { type: 'nav.route'; pathname: string; showsNav?: boolean }
  | { type: 'nav.viewport'; isLaptopUp: boolean }
  | { type: 'overlay.opened'; width: number }
  | { type: 'overlay.resized'; width: number }
  | { type: 'overlay.closed' };

/** Returns the state the navigation starts in: below laptop width, a drawer, always closed. */
export function initialNavState(input: NavInput): 'opened' | 'closed' {
  if (!input.isLaptopUp) return 'closed';
  if (input.initial === 'open' || input.initial === 'opened') return 'opened';
  if (input.initial === 'close' || input.initial === 'closed') return 'closed';
  return input.isTablet ? 'closed' : 'opened';
}

/**
 * The user's toggle to `target`: saved in the preference on laptop-size screens only (a drawer's
 * opening and closing is not a choice to keep); closing forgets that an overlay closed it.
 */
const toggleTo = (target: 'open' | 'close') => {
  const save = { type: 'persistNavState', params: { navState: target === 'open' ? 'opened' : 'closed' } } as const;
  const forget = target === 'close' ? (['forgetOverlayClose'] as const) : ([] as const);
  return [
    { guard: 'isLaptopUp', target, actions: [save, ...forget] },
    { target, actions: [...forget] },
  ] as const;
};

/** An open navigation becomes a closed drawer when the screen narrows below laptop width. */
const leaveLaptopWidth = [{ guard: 'leavesLaptopWidth', target: 'closed', actions: 'setViewport' }, { actions: 'setViewport' }] as const;

export const navMachine = setup({
  types: {} as { context: NavContext; events: NavEvent; input: NavInput },
  actions: {
    /** Records the user's choice in the `nav_state` preference; provided by the app. */
    persistNavState: (_, _params: { navState: 'opened' | 'closed' }) => {},
    setRoute: assign(({ event }) =>
      event.type === 'nav.route' ? { pathname: event.pathname, showsNav: event.showsNav ?? showsSideNav(event.pathname) } : {},
    ),
    setViewport: assign({ isLaptopUp: ({ event }) => (event.type === 'nav.viewport' ? event.isLaptopUp : false) }),
    overlayOpened: assign({
      overlayOpen: true,
      overlayWidth: ({ event, context }) => ('width' in event ? event.width : context.overlayWidth),
    }),
    overlayResized: assign({ overlayWidth: ({ event }) => ('width' in event ? event.width : 0) }),
    overlayClosed: assign({ overlayOpen: false, overlayWidth: 0, closedByOverlay: false }),
    markClosedByOverlay: assign({ closedByOverlay: true }),
    forgetOverlayClose: assign({ closedByOverlay: false }),
  },
  guards: {
    routeShowsNav: ({ context }) => context.showsNav,
    isLaptopUp: ({ context }) => context.isLaptopUp,
    mouseBeyondNav: ({ context, event }) =>
      event.type === 'nav.hide' && event.x > context.navWidth + PEEK_HIDE_MARGIN,
    overlayTooWide: ({ context }) => context.overlayOpen && context.overlayWidth > MAX_OVERLAY_WIDTH_WITH_NAV,
    reopenAfterOverlay: ({ context }) => context.closedByOverlay && context.isLaptopUp,
    leavesLaptopWidth: ({ event }) => event.type === 'nav.viewport' && !event.isLaptopUp,
  },
  delays: { closeDelay: NAV_CLOSE_DELAY_MS },
}).createMachine({
  id: 'nav',
  context: ({ input }) => ({
    pathname: input.pathname,
    showsNav: showsSideNav(input.pathname),
    isLaptopUp: input.isLaptopUp,
    navWidth: NAV_WIDTH,
    overlayOpen: false,
    overlayWidth: 0,
    closedByOverlay: false,
  }),
  initial: 'opened',
  on: {
    'nav.route': { actions: 'setRoute' },
    'nav.viewport': { actions: 'setViewport' },
    'overlay.resized': { actions: 'overlayResized' },
  },
  states: {
    opened: {
      on: {
        'nav.toggle': toggleTo('close'),
        'nav.viewport': leaveLaptopWidth,
        'nav.close': { guard: 'routeShowsNav', target: 'close' },
        'overlay.opened': { target: 'close', actions: ['overlayOpened', 'markClosedByOverlay'] },
        'overlay.closed': { actions: 'overlayClosed' },
      },
    },
    open: {
      always: { guard: 'overlayTooWide', target: 'close' },
      on: {
        'nav.toggle': toggleTo('close'),
        'nav.viewport': leaveLaptopWidth,
        'nav.close': { guard: 'routeShowsNav', target: 'close' },
        'overlay.opened': { target: 'close', actions: ['overlayOpened', 'markClosedByOverlay'] },
        'overlay.closed': { actions: 'overlayClosed' },
      },
    },
    close: {
      after: { closeDelay: 'closed' },
      on: {
        'nav.toggle': toggleTo('open'),
        'nav.open': { guard: 'isLaptopUp', target: 'open' },
        'overlay.opened': { actions: 'overlayOpened' },
        'overlay.closed': [
          { guard: 'reopenAfterOverlay', target: 'open', actions: 'overlayClosed' },
          { actions: 'overlayClosed' },
        ],
      },
    },
    closed: {
      on: {
        'nav.toggle': toggleTo('open'),
        'nav.open': { guard: 'isLaptopUp', target: 'open' },
        'nav.peek': { target: 'peek' },
        'overlay.opened': { actions: 'overlayOpened' },
        'overlay.closed': [
          { guard: 'reopenAfterOverlay', target: 'open', actions: 'overlayClosed' },
          { actions: 'overlayClosed' },
        ],
      },
    },
    peek: {
      on: {
        'nav.hide': { guard: 'mouseBeyondNav', target: 'closed' },
        'nav.toggle': toggleTo('open'),
        'nav.open': { guard: 'isLaptopUp', target: 'open' },
        'overlay.opened': { target: 'closed', actions: 'overlayOpened' },
        'overlay.closed': { actions: 'overlayClosed' },
      },
    },
  },
});

export type NavSnapshot = SnapshotFrom<typeof navMachine>;

/** Returns the snapshot an actor of `machine` starts from, given the page it starts on. */
export function initialNavSnapshot(machine: typeof navMachine, input: NavInput): NavSnapshot {
  return machine.resolveState({
    value: initialNavState(input),
    context: {
      pathname: input.pathname,
      showsNav: showsSideNav(input.pathname),
      isLaptopUp: input.isLaptopUp,
      navWidth: NAV_WIDTH,
      overlayOpen: false,
      overlayWidth: 0,
      closedByOverlay: false,
    },
  });
}
