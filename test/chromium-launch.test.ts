/**
 * How the browser suites start Chromium (test/support/chromium-flags.ts): the features Playwright
 * turns off stay off when the suites turn off more, and neither the address bar's popups, which
 * every new browser context would otherwise start in renderers of their own, nor a spare renderer
 * are started. The one the machine project shares runs V8 without its optimizing compilers; one a
 * suite starts for itself runs V8 as a visitor's browser does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { launchOwnChromium } from './support/browser.js';
import { CHROMIUM_FLAGS, NO_OPTIMIZING_JIT, NO_SPARE_RENDERER, UNUSED_BROWSER_UI } from './support/chromium-flags.js';

/** A process's command line, argument by argument. */
function argumentsOf(pid: number | string): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** The arguments of this process's children, by pid. */
function children(): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (parent === process.pid) found.set(Number(pid), argumentsOf(pid));
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** The browser's targets that are Chromium's own pages, once a new context has opened a page. */
async function browserUiTargets(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  await (await context.newPage()).goto('about:blank');
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets');
  await context.close();
  return targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url);
}

/** The renderers running once a new context has opened a page and navigated it. */
async function renderersForOnePage(browser: Browser): Promise<number> {
  const context = await browser.newContext();
  await (await context.newPage()).goto('data:text/html,<p>明瞳</p>');
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = await session.send('SystemInfo.getProcessInfo');
  await context.close();
  return processInfo.filter((p) => p.type === 'renderer').length;
}

/**
 * The V8 flags on the browser process's command line (Chromium hands them to each renderer it
 * starts, not on the renderer's command line).
 */
async function browserJsFlags(browser: Browser): Promise<string[]> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = await session.send('SystemInfo.getProcessInfo');
  const { id } = processInfo.find((p) => p.type === 'browser')!;
  return argumentsOf(id).filter((a) => a.startsWith('--js-flags='));
}

describe('Chromium as the browser suites start it', () => {
  let browser: Browser | undefined;
  afterEach(() => browser?.close());

  it('keeps off every feature Playwright turns off, the address bar’s popups and the spare renderer', async () => {
    const before = new Set(children().keys());
    browser = await launchOwnChromium();
    const started = [...children()].filter(([pid, args]) => !before.has(pid) && args[0]?.endsWith('/chromium'));
    expect(started).toHaveLength(1);
    const lists = started[0]![1].filter((a) => a.startsWith('--disable-features=')).map((a) => a.split('=')[1]!.split(','));
    // Playwright's list, then ours: Chromium reads the last.
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const effective = lists.at(-1)!;
    expect(lists.flat().filter((feature) => !effective.includes(feature))).toEqual([]);
    expect(effective).toEqual(expect.arrayContaining([...UNUSED_BROWSER_UI, NO_SPARE_RENDERER]));
    expect(await browserUiTargets(browser)).toEqual([]);
    expect(await renderersForOnePage(browser)).toBe(1);
  });

  it('shared by the machine project, is started with V8’s optimizing compilers off; started by a suite of its own, runs V8 as visitors have it', async () => {
    const shared = inject('chromiumEndpoint');
    expect(shared, 'this file runs in the machine project, whose files share one Chromium').toBeDefined();
    browser = await chromium.connect(shared!);
    expect(await browserJsFlags(browser)).toEqual([NO_OPTIMIZING_JIT]);
    await browser.close();
    browser = await launchOwnChromium();
    expect(await browserJsFlags(browser)).toEqual([]);
  });

  it('would start the popups without that flag (so the check above checks something)', async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--disable-features=')),
    });
    expect((await browserUiTargets(browser)).some((url) => url.startsWith('chrome://omnibox-popup'))).toBe(true);
  });

  it('would start a spare renderer beside the page without that feature off (so the check above checks something)', async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_FLAGS.map((flag) => flag.replace(`,${NO_SPARE_RENDERER}`, '')),
    });
    expect(await renderersForOnePage(browser)).toBe(2);
  });
});
