import { createOverlayRegistry } from '../../lib/overlay/overlay-registry';
import {
  carryOverlayParams,
  resolveOverlay,
  validateOverlayParams,
  withOverlay,
  withoutOverlayParams,
} from '../../lib/overlay/overlay-params';
import { registerOverlayKinds } from './overlay-kinds';

const registry = createOverlayRegistry();
registerOverlayKinds(registry);
const q = (s: string) => new URLSearchParams(s);

describe('overlay parameters', () => {
  it('opens a preview whose required parameters are present', () => {
    const result = resolveOverlay(
      registry,
      q('x=1&overlay-type=preview&overlay-source=gmail&overlay-category=apps&overlay-deeplink=d1&overlay-board_id=b'),
    );
    expect(result).toMatchObject({
      status: 'open',
      kind: { type: 'preview' },
      params: { source: 'gmail', category: 'apps', deeplink: 'd1', board_id: 'b' },
    });
  });

  it("rejects a preview without a deeplink with 'Invalid Overlay params supplied!'", () => {
    expect(resolveOverlay(registry, q('overlay-type=preview&overlay-source=gmail&overlay-category=apps'))).toEqual({
      status: 'invalid',
      type: 'preview',
      error: 'Invalid Overlay params supplied!',
    });
    expect(() => validateOverlayParams(registry, 'report', { type: 'report' })).toThrow('Invalid Overlay params supplied!');
  });

  it('treats an unknown overlay-type as no overlay', () => {
    expect(resolveOverlay(registry, q('overlay-type=popup'))).toEqual({ status: 'none' });
    expect(resolveOverlay(registry, q('type=preview'))).toEqual({ status: 'none' });
  });

  it('reports a known type nobody registered, and a kind without a schema', () => {
    const empty = createOverlayRegistry();
    expect(() => validateOverlayParams(empty, 'portfolio', { type: 'portfolio' })).toThrow('Overlay Type not found!');
    empty.register({ type: 'portfolio', title: 'P', size: 'medium', width: { min: 50, max: 80 }, Component: () => null });
    expect(() => validateOverlayParams(empty, 'portfolio', { type: 'portfolio' })).toThrow('Overlay Params Schema not found!');
  });

  it('fills the custom feed page with its first page when none is given', () => {
    expect(resolveOverlay(registry, q('overlay-type=custom-feed'))).toMatchObject({ params: { page: 'select-feed-type' } });
  });

  it('passes the builder its page and optional parameters, an unknown page included (the builder refuses it)', () => {
    expect(
      resolveOverlay(registry, q('overlay-type=custom-feed&overlay-page=edit-feed&overlay-board-id=b1&overlay-suggestion-ids=s1,s2')),
    ).toMatchObject({ status: 'open', params: { page: 'edit-feed', 'board-id': 'b1', 'suggestion-ids': 's1,s2' } });
    expect(resolveOverlay(registry, q('overlay-type=custom-feed&overlay-page=nope'))).toMatchObject({ status: 'open', params: { page: 'nope' } });
  });

  it('removes every overlay- parameter on close and keeps the others', () => {
    expect(withoutOverlayParams(q('a=1&overlay-type=report&overlay-report-id=9&b=2')).toString()).toBe('a=1&b=2');
  });

  it('builds the query that opens an overlay', () => {
    expect(withOverlay(q('a=1&overlay-report-id=old'), 'report', { 'report-id': 'r1' }).toString()).toBe('a=1&overlay-type=report&overlay-report-id=r1');
  });

  it('carries the overlay parameters over on navigation', () => {
    expect(carryOverlayParams('/search?q=x', '?page=2&overlay-type=portfolio')).toBe('/search?q=x&overlay-type=portfolio');
    expect(carryOverlayParams('/feeds/home', '?page=2')).toBe('/feeds/home');
  });
});
