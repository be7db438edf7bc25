import { createActor } from 'xstate';
import { initialNavSnapshot, initialNavState, navMachine, type NavInput } from './nav.machine';

const desktop: NavInput = { pathname: '/feeds/home', isTablet: false, isLaptopUp: true };

function start(input: Partial<NavInput> = {}, persisted: string[] = []) {
  const machine = navMachine.provide({
    actions: { persistNavState: (_, params) => void persisted.push(params.navState) },
  });
  const full = { ...desktop, ...input };
  return createActor(machine, { input: full, snapshot: initialNavSnapshot(machine, full) }).start();
}

describe('side navigation machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  describe('initial state', () => {
    it('starts opened on larger screens and closed on tablets', () => {
      expect(initialNavState({ ...desktop })).toBe('opened');
      expect(initialNavState({ ...desktop, isTablet: true, isLaptopUp: false })).toBe('closed');
    });

    it('turns a given open into opened and a given close into closed', () => {
      expect(initialNavState({ ...desktop, isTablet: true, initial: 'open' })).toBe('opened');
      expect(initialNavState({ ...desktop, initial: 'close' })).toBe('closed');
      expect(start({ initial: 'closed' }).getSnapshot().value).toBe('closed');
    });
  });

  describe('toggle', () => {
    it('moves opened to close, which becomes closed after 500 ms', () => {
      const nav = start();
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('close');
      vi.advanceTimersByTime(499);
      expect(nav.getSnapshot().value).toBe('close');
      vi.advanceTimersByTime(1);
      expect(nav.getSnapshot().value).toBe('closed');
    });

    it('moves open to close and closed, close and peek to open', () => {
      const nav = start({ initial: 'closed' });
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('open');
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('close');
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('open');
      nav.send({ type: 'nav.toggle' });
      vi.advanceTimersByTime(500);
      nav.send({ type: 'nav.peek' });
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('open');
    });

    it('records each choice in the nav_state preference', () => {
      const persisted: string[] = [];
      const nav = start({}, persisted);
      nav.send({ type: 'nav.toggle' });
      vi.advanceTimersByTime(500);
      nav.send({ type: 'nav.toggle' });
      expect(persisted).toEqual(['closed', 'opened']);
    });
  });

  describe('below laptop width, as a drawer', () => {
    const tablet = { isTablet: true, isLaptopUp: false };

    it('starts closed whatever the saved choice', () => {
      expect(initialNavState({ ...desktop, ...tablet, initial: 'opened' })).toBe('closed');
      expect(start({ ...tablet, initial: 'open' }).getSnapshot().value).toBe('closed');
    });

    it('opens and closes without saving the choice', () => {
      const persisted: string[] = [];
      const nav = start(tablet, persisted);
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('open');
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('close');
      expect(persisted).toEqual([]);
    });

    it('closes when the screen narrows below laptop width, and stays closed when it widens again', () => {
      const persisted: string[] = [];
      const nav = start({}, persisted);
      nav.send({ type: 'nav.viewport', isLaptopUp: true });
      expect(nav.getSnapshot().value).toBe('opened');
      nav.send({ type: 'nav.viewport', isLaptopUp: false });
      expect(nav.getSnapshot().value).toBe('closed');
      expect(nav.getSnapshot().context.isLaptopUp).toBe(false);
      nav.send({ type: 'nav.viewport', isLaptopUp: true });
      expect(nav.getSnapshot().value).toBe('closed');
      expect(persisted).toEqual([]);
    });
  });

  describe('close', () => {
    it('closes only on routes that show the navigation', () => {
      const nav = start({ pathname: '/notifications' });
      nav.send({ type: 'nav.close' });
      expect(nav.getSnapshot().value).toBe('opened');
      nav.send({ type: 'nav.route', pathname: '/channels/c1' });
      nav.send({ type: 'nav.close' });
      expect(nav.getSnapshot().value).toBe('close');
    });

    it('closes on an unknown address, which the shell says shows the navigation', () => {
      const nav = start({ pathname: '/notifications' });
      nav.send({ type: 'nav.route', pathname: '/no/such/page', showsNav: true });
      nav.send({ type: 'nav.close' });
      expect(nav.getSnapshot().value).toBe('close');
    });

    it('leaves closed closed', () => {
      const nav = start({ initial: 'closed' });
      nav.send({ type: 'nav.close' });
      expect(nav.getSnapshot().value).toBe('closed');
    });
  });

  describe('open', () => {
    it('opens from closed only on laptop-size screens or larger', () => {
      const laptop = start({ initial: 'closed' });
      laptop.send({ type: 'nav.open' });
      expect(laptop.getSnapshot().value).toBe('open');

      const tablet = start({ initial: 'closed', isTablet: true, isLaptopUp: false });
      tablet.send({ type: 'nav.open' });
      expect(tablet.getSnapshot().value).toBe('closed');
    });

    it('leaves opened opened', () => {
      const nav = start();
      nav.send({ type: 'nav.open' });
      expect(nav.getSnapshot().value).toBe('opened');
    });
  });

  describe('peek', () => {
    it('peeks only from closed', () => {
      const nav = start();
      nav.send({ type: 'nav.peek' });
      expect(nav.getSnapshot().value).toBe('opened');
      nav.send({ type: 'nav.toggle' });
      nav.send({ type: 'nav.peek' });
      expect(nav.getSnapshot().value).toBe('close');
      vi.advanceTimersByTime(500);
      nav.send({ type: 'nav.peek' });
      expect(nav.getSnapshot().value).toBe('peek');
    });

    it('hides only when the mouse is beyond the navigation width plus 16 px', () => {
      const nav = start({ initial: 'closed' });
      nav.send({ type: 'nav.peek' });
      nav.send({ type: 'nav.hide', x: 240 + 16 });
      expect(nav.getSnapshot().value).toBe('peek');
      nav.send({ type: 'nav.hide', x: 240 + 17 });
      expect(nav.getSnapshot().value).toBe('closed');
    });
  });

  describe('overlays', () => {
    it('closes when an overlay opens and reopens when it closes', () => {
      const persisted: string[] = [];
      const nav = start({}, persisted);
      nav.send({ type: 'overlay.opened', width: 50 });
      expect(nav.getSnapshot().value).toBe('close');
      vi.advanceTimersByTime(500);
      expect(nav.getSnapshot().value).toBe('closed');
      nav.send({ type: 'overlay.closed' });
      expect(nav.getSnapshot().value).toBe('open');
      expect(persisted).toEqual([]);
    });

    it('does not reopen after the overlay when the user had closed it', () => {
      const nav = start({ initial: 'closed' });
      nav.send({ type: 'overlay.opened', width: 50 });
      nav.send({ type: 'overlay.closed' });
      expect(nav.getSnapshot().value).toBe('closed');
    });

    it('does not reopen after the overlay on a tablet', () => {
      const nav = start();
      nav.send({ type: 'overlay.opened', width: 50 });
      nav.send({ type: 'nav.viewport', isLaptopUp: false });
      vi.advanceTimersByTime(500);
      nav.send({ type: 'overlay.closed' });
      expect(nav.getSnapshot().value).toBe('closed');
    });

    it('closes again when opened beside an overlay wider than 80 percent', () => {
      const nav = start({ initial: 'closed' });
      nav.send({ type: 'overlay.opened', width: 85 });
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('close');
      nav.send({ type: 'overlay.resized', width: 60 });
      vi.advanceTimersByTime(500);
      nav.send({ type: 'nav.toggle' });
      expect(nav.getSnapshot().value).toBe('open');
    });
  });
});
