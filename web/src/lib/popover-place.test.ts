import { ANCHOR_GAP, placePopover, SCREEN_MARGIN } from './popover-place';

const screen = { width: 1024, height: 768 };
const size = { width: 400, height: 120 };
const anchor = (left: number, top: number) => ({ left, top, width: 20, height: 16 });

describe('placing a popover', () => {
  it('centres it above its anchor when it fits', () => {
    expect(placePopover(anchor(500, 400), size, screen)).toEqual({ left: 310, top: 400 - ANCHOR_GAP - 120, side: 'above' });
  });

  it('moves it left from the right edge and right from the left edge, never off the screen', () => {
    expect(placePopover(anchor(1000, 400), size, screen).left).toBe(1024 - 400 - SCREEN_MARGIN);
    expect(placePopover(anchor(2, 400), size, screen).left).toBe(SCREEN_MARGIN);
  });

  it('goes below an anchor near the top, and above one near the bottom', () => {
    expect(placePopover(anchor(500, 30), size, screen)).toMatchObject({ top: 30 + 16 + ANCHOR_GAP, side: 'below' });
    expect(placePopover(anchor(500, 740), size, screen)).toMatchObject({ top: 740 - ANCHOR_GAP - 120, side: 'above' });
  });

  it('stays inside a screen too short for either side', () => {
    const placed = placePopover(anchor(500, 60), { width: 400, height: 100 }, { width: 1024, height: 150 });
    expect(placed.top).toBeGreaterThanOrEqual(SCREEN_MARGIN);
    expect(placed.top + 100).toBeLessThanOrEqual(150 - SCREEN_MARGIN + 1e-9);
  });

  it('starts at the margin when the popover is wider than a phone screen', () => {
    expect(placePopover(anchor(200, 400), { width: 500, height: 100 }, { width: 390, height: 844 }).left).toBe(SCREEN_MARGIN);
  });
});
