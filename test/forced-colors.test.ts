/**
 * Forced colours (Windows' contrast themes), as Chromium emulates them, judged from the pixels
 * drawn (test/support/page-checks/forced-colors.ts): every control and card the standard colours
 * draw as a box keeps an edge in the system colours on all four sides; every icon still draws
 * (the masks of the phone and the map pin, the menu's bars, the search's handle, the carousel's
 * dots); a focused link has its ring. The header, the carousel, the figures and a card on the
 * home page; the phone menu open; a list's cards, filter pills and pages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { bareSides, inkIn, inkOf, markedBoxes, markShapes, systemColours, windowPixels } from './support/page-checks/forced-colors.js';
import type { RunningService } from './support/start-service.js';

/** An icon drawn by `host` (its first match in the window), and the style that takes just the icon away. */
interface Icon {
  host: string;
  hide: string;
}

const HEADER_ICONS: Icon[] = [
  { host: '.top-hotline', hide: '.top-hotline::before { visibility: hidden }' },
  { host: '.book-btn', hide: '.book-btn::before { visibility: hidden }' },
  { host: '.search-toggle', hide: '.search-toggle .search-icon::after { visibility: hidden }' },
  { host: '.a11y-toggle', hide: '.a11y-toggle::before { visibility: hidden }' },
];

/** The window's boxes marked in the standard colours, looked at in forced colours: each side that has no edge, one line each. */
async function edgesInForcedColours(page: Page, scope: string): Promise<{ boxes: number; faults: string[] }> {
  await page.emulateMedia({ forcedColors: 'none' });
  await settled(page);
  const boxes = await markShapes(page, scope);
  await forced(page);
  const ink = inkOf(await systemColours(page));
  const marked = await markedBoxes(page);
  const pixels = await windowPixels(page);
  // Drawn where they were measured: nothing moved in between.
  expect(await markedBoxes(page)).toEqual(marked);
  const faults = marked.flatMap((box) => {
    const bare = bareSides(pixels, ink, box, -4, 2);
    return bare.length ? [`${box.name}: no edge on its ${bare.join(', ')}`] : [];
  });
  return { boxes, faults };
}

/** Each icon that draws nothing in forced colours: the ink in its host's box with the icon and without it. */
async function missingIcons(page: Page, icons: readonly Icon[]): Promise<string[]> {
  await forced(page);
  const ink = inkOf(await systemColours(page));
  const missing: string[] = [];
  for (const { host, hide } of icons) {
    const box = await page.locator(`${host}:visible`).first().boundingBox();
    if (!box) {
      missing.push(`${host}: not drawn`);
      continue;
    }
    const shown = inkIn(await windowPixels(page), ink, box);
    const style = await page.addStyleTag({ content: hide });
    await nextFrame(page);
    const hidden = inkIn(await windowPixels(page), ink, box);
    await style.evaluate((el) => (el as Element).remove());
    // Some ink of the icon's own: a 2 px line scaled to two thirds is a few pixels.
    if (shown - hidden < 4) missing.push(`${host}: its icon draws ${shown - hidden} px of ink`);
  }
  return missing;
}

/**
 * Whether the chosen item (`chosen`, in forced colours) is filled, most of its box not Canvas,
 * and whether its sibling (`other`) is: what is current must be told apart by more than its text.
 */
async function chosenFilled(page: Page, chosen: string, other: string): Promise<{ chosen: boolean; other: boolean }> {
  const [canvas] = await systemColours(page);
  const pixels = await windowPixels(page);
  const filled = async (selector: string) => {
    const box = (await page.locator(selector).first().boundingBox())!;
    let off = 0;
    let all = 0;
    for (let y = Math.ceil(box.y); y < box.y + box.height - 1; y++)
      for (let x = Math.ceil(box.x); x < box.x + box.width - 1; x++, all++)
        if (pixels.at(x, y).some((v, i) => Math.abs(v - canvas![i]!) > 64)) off++;
    return off / all > 0.5;
  };
  return { chosen: await filled(chosen), other: await filled(other) };
}

/** The page's pictures and fonts in, so that nothing moves while it is looked at. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    // A lazy picture not yet asked for is not waited for: it may never be.
    const pictures = Array.from(document.images).filter((img) => img.complete || img.loading !== 'lazy');
    await Promise.all(pictures.map((img) => img.decode().catch(() => undefined)));
  });
  await nextFrame(page);
}

async function forced(page: Page): Promise<void> {
  await page.emulateMedia({ forcedColors: 'active' });
  await nextFrame(page);
}

const nextFrame = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

describe('forced colours, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('the home page: the header’s buttons and icons, the carousel’s controls and dots, the figures and a card keep their shapes', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoHydrated(page, `${svc.url}/`);
    const top = await edgesInForcedColours(page, '.site-header, .carousel, .home-stats');
    expect(top.faults).toEqual([]);
    // The header's 预约咨询, 搜索, 长者模式, 辅助浏览; the carousel's two buttons; the figures.
    expect(top.boxes).toBeGreaterThanOrEqual(7);
    expect(
      await missingIcons(page, [...HEADER_ICONS, { host: '.carousel-dot', hide: '.carousel-dot::before { visibility: hidden }' }]),
    ).toEqual([]);
    // The current slide's dot is told apart from the others: filled.
    const dots = page.locator('.carousel-dot');
    const ink = inkOf(await systemColours(page));
    const pixels = await windowPixels(page);
    const [current, other] = [await dots.nth(0).boundingBox(), await dots.nth(1).boundingBox()];
    expect(inkIn(pixels, ink, current!)).toBeGreaterThan(inkIn(pixels, ink, other!) * 1.5);

    await page.emulateMedia({ forcedColors: 'none' });
    await page.locator('.card').first().scrollIntoViewIfNeeded();
    const card = await edgesInForcedColours(page, 'main');
    expect(card.faults).toEqual([]);
    expect(card.boxes).toBeGreaterThanOrEqual(1);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('the phone menu, open: its buttons, pills and icons keep their shapes', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    await page.locator('.menu-toggle').click();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const menu = await edgesInForcedColours(page, '.site-header');
    expect(menu.faults).toEqual([]);
    // The menu's toggle, the search field and its button, the call and booking buttons, 辅助浏览, a section's pills.
    expect(menu.boxes).toBeGreaterThanOrEqual(6);
    expect(
      await missingIcons(page, [
        { host: '.top-hotline', hide: '.top-hotline::before { visibility: hidden }' },
        { host: '.menu-toggle', hide: '.menu-icon, .menu-icon::before, .menu-icon::after { visibility: hidden }' },
        { host: '.search-submit', hide: '.search-submit .search-icon::after { visibility: hidden }' },
        { host: '.nav-booking .icon-phone', hide: '.nav-booking .icon-phone::before { visibility: hidden }' },
      ]),
    ).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('a list: its cards and pages keep their shapes, and the chosen tab and page are told apart', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/news/index?id=20&name=医院新闻`);
    await forced(page);
    expect(await chosenFilled(page, '.tab-link[aria-current]', '.tab-link:not([aria-current])')).toEqual({ chosen: true, other: false });
    await page.emulateMedia({ forcedColors: 'none' });
    // The first row of cards wholly in the window: scrolled only as far as needed, its bottom
    // edge would end at the window's, a fraction of a pixel past it once the page is scaled.
    await page
      .locator('main .card')
      .first()
      .evaluate((card) => card.scrollIntoView({ block: 'center' }));
    const list = await edgesInForcedColours(page, 'main');
    expect(list.faults).toEqual([]);
    expect(list.boxes).toBeGreaterThanOrEqual(3);
    await page.emulateMedia({ forcedColors: 'none' });
    await page.locator('.pagination').scrollIntoViewIfNeeded();
    const pages = await edgesInForcedColours(page, '.pagination');
    expect(pages.faults).toEqual([]);
    expect(await chosenFilled(page, '.page-number[aria-current]', '.page-number:not([aria-current])')).toEqual({
      chosen: true,
      other: false,
    });
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('a link focused from the keyboard has a ring around it in the system colours', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    await forced(page);
    // The skip link, then the top bar's booking line: a link of the page's own text.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.className ?? '');
    expect(focused).toContain('top-hotline');
    await nextFrame(page);
    const box = (await page.locator('.top-hotline').boundingBox())!;
    const ink = inkOf(await systemColours(page));
    expect(bareSides(await windowPixels(page), ink, { name: 'the focused link', ...box }, 1, 8)).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });
});
