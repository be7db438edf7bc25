import { expect, type Locator, type Page } from '@playwright/test';

/** The smallest box a finger can hit reliably, in CSS px (WCAG 2.5.5, Apple's and Android's guides). */
export const TOUCH_TARGET_PX = 44;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} has no box`);
  return found;
}

/** Checks the document does not scroll sideways: nothing is wider than the screen. */
export async function expectNoSideScroll(page: Page, where = page.url()) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `the page is wider than the screen at ${where}`).toBeLessThanOrEqual(innerWidth);
}

/** Checks each of `controls` is at least 44 px wide and tall, once the first is shown (pages load their code on demand). */
export async function expectTouchTargets(controls: Locator) {
  await expect(controls.first()).toBeVisible();
  const count = await controls.count();
  expect(count, `no ${controls}`).toBeGreaterThan(0);
  for (let i = 0; i < count; i += 1) {
    const { width, height } = await box(controls.nth(i));
    const name = `${(await controls.nth(i).getAttribute('aria-label')) ?? (await controls.nth(i).innerText()).trim()}`;
    expect(Math.round(width), `width of "${name}"`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX);
    expect(Math.round(height), `height of "${name}"`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX);
  }
}

/** Checks `locator` lies wholly on the screen and is what a tap at its middle would hit. */
export async function expectInReach(page: Page, locator: Locator) {
  const { x, y, width, height } = await box(locator);
  const viewport = page.viewportSize()!;
  expect(x, 'left edge').toBeGreaterThanOrEqual(0);
  expect(y, 'top edge').toBeGreaterThanOrEqual(0);
  expect(x + width, 'right edge').toBeLessThanOrEqual(viewport.width);
  expect(y + height, 'bottom edge').toBeLessThanOrEqual(viewport.height);
  const hit = await locator.evaluate((el, [cx, cy]) => {
    const top = document.elementFromPoint(cx, cy);
    return top !== null && (top === el || el.contains(top));
  }, [x + width / 2, y + height / 2] as const);
  expect(hit, `${locator} is covered at its middle`).toBe(true);
}

/** Checks the page's content is not squeezed beside a navigation column: it takes at least 90% of the width. */
export async function expectFullWidthContent(page: Page) {
  const { width } = await box(page.locator('#main'));
  expect(width).toBeGreaterThanOrEqual(page.viewportSize()!.width * 0.9);
}
