/** Debian's Chromium driven by playwright-core, with the console watched for errors and warnings. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { searchReady } from './search.js';
import { startService, type RunningService } from './start-service.js';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

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
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { page, problems };
}

/** Navigate and wait until React has hydrated the page. */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** The built site on loopback and Chromium, for a browser suite's beforeAll. */
export async function startSiteAndChromium(): Promise<{ svc: RunningService; browser: Browser }> {
  // The run's browser suites share their pictures' variants on disk (browser-suites-media.ts).
  const svc = await startService({ MEDIA_CACHE_DIR: inject('browserSuitesMediaDir') }, { clientDir: 'dist/client' });
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

/** Scrolls through the page, so that lazy pictures load, waits for them, and back to the top. */
export async function loadPictures(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await new Promise(requestAnimationFrame);
    }
    scrollTo(0, 0);
    // Those drawn (a picture hidden at this width is never fetched), once they have loaded or failed.
    const drawn = Array.from(document.images).filter((img) => img.getBoundingClientRect().width > 0);
    const loading = drawn.filter((img) => !img.complete);
    await Promise.all(
      loading.map(
        (img) =>
          new Promise((done) => {
            img.addEventListener('load', done, { once: true });
            img.addEventListener('error', done, { once: true });
          }),
      ),
    );
  });
}

/** Problems on the console, but the 404 page's own status. */
export const consoleProblems = (w: WatchedPage) => w.problems.filter((p) => !/status of 404/.test(p));

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
