/** Debian's Chromium driven by playwright-core, with the console watched for errors and warnings. */
import { chromium, type Browser, type Page } from 'playwright-core';

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
