/** Debian's Chromium driven by playwright-core, with the console watched for errors and warnings. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { TEXT_SIZE_COOKIE, THEME_COOKIE } from '../../shared/constants.js';
import { MEDIA_PREFIX } from '../../shared/media-url.js';
import { launchOwnChromium } from './launch-chromium.js';
import { searchReady } from './search.js';
import { startService, type RunningService } from './start-service.js';

/**
 * Chromium for a suite. In the machine project, a connection to the one Chromium its files share
 * (chromium-server.ts): starting Chromium for each file cost about two CPU-seconds a file, and
 * each suite's browser contexts keep it apart from the others' (closing the connection closes
 * them). Elsewhere (the suites that run alone, time what Chromium does), one of its own.
 */
export function launchChromium(): Promise<Browser> {
  const shared = inject('chromiumEndpoint');
  return shared ? chromium.connect(shared) : launchOwnChromium();
}

export { launchOwnChromium };

export interface WatchedPage {
  page: Page;
  /** Console errors and warnings, and uncaught exceptions, seen so far. */
  problems: string[];
}

export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; userAgent?: string; javaScriptEnabled?: boolean } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1920, height: options.height ?? 1080 },
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const widest = widestVariants(page);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      if (!takenLarger(m.text(), widest)) problems.push(`${m.type()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { page, problems };
}

/** A media variant's address: its crop and width, and the picture (version and ref) it is made of. */
const VARIANT = new RegExp(`${MEDIA_PREFIX}((?:/[a-z][a-z0-9-]*)?)/(\\d+)/([^/?#\\s]+/[^/?#\\s]+)`);

/** The widest variant of each picture (by crop, version and ref) this page has fetched, on any of its documents. */
function widestVariants(page: Page): Map<string, number> {
  const widest = new Map<string, number>();
  page.on('response', (response) => {
    const variant = VARIANT.exec(new URL(response.url()).pathname);
    if (!variant) return;
    const picture = `${variant[1]}/${variant[3]}`;
    widest.set(picture, Math.max(widest.get(picture) ?? 0, Number(variant[2])));
  });
  return widest;
}

/**
 * Chromium's warning that a preloaded variant went unused, where the page fetched a wider variant
 * of the same picture before: choosing from a srcset, Chromium takes a wider candidate its cache
 * holds (a list drew the picture larger before this page), which a preload does not. The browser
 * preferring a copy it has, not a page asking for the wrong picture; a preload unused for any
 * other reason is still a problem.
 */
function takenLarger(text: string, widest: Map<string, number>): boolean {
  if (!/was preloaded using link preload but not used/.test(text)) return false;
  const variant = VARIANT.exec(text);
  return variant !== null && (widest.get(`${variant[1]}/${variant[3]}`) ?? 0) > Number(variant[2]);
}

/** Navigate and wait until React has hydrated the page. */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** The built site on loopback and Chromium, for a browser suite's beforeAll. */
export async function startSiteAndChromium(): Promise<{ svc: RunningService; browser: Browser }> {
  const svc = await startService({}, { clientDir: 'dist/client' });
  try {
    // The search page is among every page's: its index is built before the first visit.
    await searchReady(svc.url);
    return { svc, browser: await launchChromium() };
  } catch (error) {
    await svc.close();
    throw error;
  }
}

/** Stops what startSiteAndChromium started (either may be missing when it failed). */
export async function stopSiteAndChromium({ svc, browser }: { svc?: RunningService; browser?: Browser }): Promise<void> {
  await browser?.close();
  await svc?.close();
}

/**
 * Layout shifts since the page started loading (the buffered entries included), summed once the
 * page is at rest: loaded, its fonts ready, the pictures in its window drawn, and two frames
 * drawn after (a shift is reported with the frame that draws it).
 */
export function layoutShift(page: Page) {
  return page.evaluate(async () => {
    let sum = 0;
    const add = (entries: PerformanceEntryList) => {
      for (const e of entries as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    if (document.readyState !== 'complete') await new Promise((done) => addEventListener('load', done, { once: true }));
    await document.fonts.ready;
    const inWindow = Array.from(document.images).filter((img) => {
      const r = img.getBoundingClientRect();
      return r.width > 0 && r.bottom > 0 && r.top < innerHeight;
    });
    await Promise.all(
      inWindow
        .filter((img) => !img.complete)
        .map(
          (img) =>
            new Promise(
              (done) => (img.addEventListener('load', done, { once: true }), img.addEventListener('error', done, { once: true })),
            ),
        ),
    );
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    add(observer.takeRecords());
    observer.disconnect();
    return sum;
  });
}

/** Problems on the console, but the 404 page's own status. */
export const consoleProblems = (w: WatchedPage) => w.problems.filter((p) => !/status of 404/.test(p));

/** The window the browser suites use at `width`: a phone's height under 500 px wide, else 900. */
export const windowAt = (width: number) => ({ width, height: width < 500 ? 844 : 900 });

/**
 * The window resized to `width`, once the page has handled the resize: its `resize` event
 * dispatched (where the scaled layout sets its zoom, head-script.ts) and a frame drawn after it.
 * Chromium dispatches the event with the next frame, not when innerWidth changes: on a busy
 * machine a check made after a fixed wait read a page still laid out at the width before
 * (1280 px drawn at 768's zoom). Once, in a clean run, a page drew no frame for 30 s after the
 * resize though its timers ran: a page Chromium takes for hidden draws none, so after 10 s the
 * page is brought to the front (said on stderr, with what the page reported) and given 20 s more;
 * a page that has still not handled it fails, saying whether it was hidden, focused, and drawing.
 */
export async function widen(page: Page, width: number): Promise<void> {
  await page.evaluate(() => {
    const w = window as Window & { resized?: Promise<void>; resizeSeen?: boolean };
    w.resizeSeen = false;
    w.resized = new Promise((done) =>
      addEventListener('resize', () => ((w.resizeSeen = true), requestAnimationFrame(() => done())), { once: true }),
    );
  });
  await page.setViewportSize(windowAt(width));
  const first = await resizeHandled(page, width, 10_000);
  if (first === 'handled') return;
  await page.bringToFront();
  const second = await resizeHandled(page, width, 20_000);
  if (second !== 'handled')
    throw new Error(`${second}, after the window was resized to ${width} px and the page brought to the front (10 s before: ${first})`);
  process.stderr.write(`widen: ${page.url()} at ${width} px handled the resize only once brought to the front (${first})\n`);
}

/** 'handled' when the page has handled the resize widen() made within `ms`, else what it reports. */
function resizeHandled(page: Page, width: number, ms: number): Promise<string> {
  return page.evaluate(
    async ({ width, ms }) => {
      const w = window as Window & { resized?: Promise<void>; resizeSeen?: boolean };
      const drawsWithin = (wait: number) =>
        new Promise<boolean>((done) => (requestAnimationFrame(() => done(true)), setTimeout(() => done(false), wait)));
      const report = async () => {
        const what = w.resizeSeen ? 'a resize event but no frame after it' : `no resize event (the window ${innerWidth} px wide)`;
        const drawn = (await drawsWithin(1_000)) ? 'a frame drawn' : 'no frame drawn';
        const focus = document.hasFocus() ? 'focused' : 'not focused';
        return `${what} ${ms / 1000} s on; the document ${document.visibilityState}, ${focus}, ${drawn} in the second after`;
      };
      const late = new Promise<string>((done) => setTimeout(() => done(report()), ms));
      // A document that is not the one widen() prepared (the page went elsewhere) has no promise.
      if (!w.resized) throw new Error('the page was replaced while its window was resized');
      const outcome = await Promise.race([w.resized.then(() => 'handled'), late]);
      if (outcome === 'handled' && innerWidth !== width)
        throw new Error(`the window is ${innerWidth} px wide, not ${width}, after the resize`);
      return outcome;
    },
    { width, ms },
  );
}

/** A width and a text size the site is drawn in. */
export interface Mode {
  width: number;
  /** The large-text mode (长者模式), chosen by its cookie. */
  large?: boolean;
  /** The high-contrast theme (高对比度), chosen by its cookie. */
  contrast?: boolean;
  /** The window's height: by default windowAt's. */
  height?: number;
}

/**
 * The shape of a check made on every page: a page opened in `mode`, the carousel holding still,
 * is given to `look`, which returns what it found wrong (one line each). Nothing may be found and
 * nothing said on the console (but a 404 page's own status). The page is closed after.
 */
export async function expectNothingFound(
  browser: Browser,
  base: string,
  mode: Mode,
  look: (page: Page) => Promise<string[]>,
): Promise<void> {
  const w = await openPage(browser, { width: mode.width, height: mode.height ?? windowAt(mode.width).height });
  try {
    if (mode.large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: base }]);
    if (mode.contrast) await w.page.context().addCookies([{ name: THEME_COOKIE, value: 'contrast', url: base }]);
    await w.page.emulateMedia({ reducedMotion: 'reduce' });
    // A first visit to a page of photos waits for each of its variants to be made (nothing is made
    // ahead in tests), behind the transforms of the suite beside it on the same two cores: a
    // list's load event once took longer than the default 30 s.
    w.page.setDefaultNavigationTimeout(90_000);
    expect(await look(w.page)).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
  } finally {
    await w.page.context().close();
  }
}

/** How long one address's visit and checks, at one width, may take in onEach before the test fails naming it. */
const PAGE_DEADLINE_MS = 100_000;

/**
 * Visits each address in turn, hydrated, and gathers what `check` finds there, each line prefixed
 * with the address. An address whose visit and checks do not end within PAGE_DEADLINE_MS (for
 * each of the `widths` a check looks at it in) fails the test with its name, rather than the whole
 * test timing out without one.
 */
export async function onEach(
  page: Page,
  base: string,
  urls: readonly string[],
  check: (url: string) => Promise<string[]>,
  widths = 1,
  /** Where the check is, for the message of an address that does not end in time. */
  where?: () => string,
): Promise<string[]> {
  const deadlineMs = PAGE_DEADLINE_MS * widths;
  const found: string[] = [];
  for (const url of urls) {
    // An error of the visit or the checks is named by its address too.
    const work = gotoHydrated(page, base + url)
      .then(() => check(url))
      .catch((error: unknown) => {
        throw new Error(`${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () => fail(new Error(`${url}: its visit and checks did not end within ${deadlineMs / 1000} s${where ? ` (at ${where()})` : ''}`)),
        deadlineMs,
      );
    });
    // Abandoned at the deadline, the visit ends when the page is closed: that error is not this test's.
    work.catch(() => undefined);
    try {
      found.push(...(await Promise.race([work, deadline])).map((line) => `${url}: ${line}`));
    } finally {
      clearTimeout(timer);
    }
  }
  return found;
}

/**
 * Opens the header's search as a visitor would, the 搜索 button on a wide screen or the menu on a
 * phone, and types `words` until its suggestions are drawn.
 */
export async function openHeaderSearch(page: Page, words: string): Promise<void> {
  const toggle = page.locator('.search-toggle');
  if (await toggle.isVisible()) await toggle.click();
  else await page.locator('.menu-toggle').click();
  const field = page.locator('.site-header .search-input:visible');
  await field.fill(words);
  await page.locator('.site-header .search-option').first().waitFor({ state: 'visible' });
}
