/** Browser behaviour in real Chromium against the real service. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { DESIGN_WIDTH_PX, HEADER_HOVER_DELAY_MS, SCALED_MIN_WIDTH_PX } from '../shared/constants.js';
import { gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { deferred } from './support/deferred.js';
import { documentProxy, proxyUrl } from './support/document-proxy.js';
import { type RunningService } from './support/start-service.js';

const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  // That every route hydrates as one page under its title, with nothing on the console, and that
  // none is wider than a phone's window, is the every-page pass's (test/every-page-*.test.ts), in
  // both text sizes.

  it("the app's scripts are requested only after the first contentful paint", async () => {
    const { page, problems } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/zjxz/index`);
    const { fcp, scripts } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/assets/') && e.name.endsWith('.js'))
        .map((e) => e.startTime),
    }));
    expect(fcp).toBeGreaterThan(0);
    expect(scripts.length).toBeGreaterThan(1);
    for (const start of scripts) expect(start).toBeGreaterThanOrEqual(fcp);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a document still arriving when the app starts is hydrated once it is whole, from its own data', async () => {
    // A proxy that holds back the end of the page (its data) until the app has started: the
    // page's data arrives late, as on a slow network.
    let appStarted = deferred();
    const held = await documentProxy(svc.url, async (res, html, path) => {
      const cut = html.indexOf('<script type="application/json"');
      if (!path.startsWith('/zjxz/index') || cut === -1) return void res.end(html);
      res.write(html.slice(0, cut));
      await appStarted.promise;
      res.end(html.slice(cut));
    });
    try {
      const { page, problems } = await openPage(browser);
      // The page says when the app's entry module has run (its script's load event).
      await page.exposeFunction('appStarted', () => appStarted.resolve());
      await page.addInitScript(() =>
        document.addEventListener(
          'load',
          (event) => {
            if ((event.target as Element).matches?.('script[type=module]')) (window as unknown as { appStarted(): void }).appStarted();
          },
          true,
        ),
      );
      const apiCalls: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/')) apiCalls.push(r.url());
      });
      // Visited once, so that the app's modules come from the HTTP cache the second time.
      const url = `${proxyUrl(held)}/zjxz/index`;
      for (let visit = 0; visit < 2; visit++) {
        appStarted = deferred();
        await gotoHydrated(page, url);
      }
      expect(await page.locator('main h1').count()).toBeGreaterThan(0);
      expect(apiCalls).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      held.closeAllConnections();
      held.close();
    }
  });

  it('an unknown route hydrates its 404 state with no console error', async () => {
    const { page, problems } = await openPage(browser);
    const res = await page.goto(`${svc.url}/no/such/page`);
    expect(res?.status()).toBe(404);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await page.title()).toBe('页面未找到');
    // Chromium reports the document's own 404 status on the console; nothing else may appear.
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('a path with an encoded tab hydrates the 404 page, not a blank one', async () => {
    const { page, problems } = await openPage(browser);
    const res = await page.goto(`${svc.url}/%09/`);
    expect(res?.status()).toBe(404);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await page.title()).toBe('页面未找到');
    expect(await page.locator('main h1').textContent()).toContain('页面未找到');
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('hovering an item opens its panel after 100 ms, not before; leaving closes it', async () => {
    const { page, problems } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const item = page.locator('a.nav-link', { hasText: '集团简介' });
    const panelId = await item.getAttribute('aria-controls');
    const panel = page.locator(`#${panelId}`);
    expect(await panel.getAttribute('data-open')).toBe('false');
    // The page notes when the pointer entered and when the panel opened, on its own clock: a
    // timer never fires early, so the delay holds however loaded the machine is.
    await item.evaluate((link) => {
      const noted: { enter?: number; open?: number } = {};
      (window as unknown as { hoverTimes: typeof noted }).hoverTimes = noted;
      link.parentElement!.addEventListener('mouseenter', () => {
        noted.enter ??= performance.now();
      });
      const panelElement = document.getElementById(link.getAttribute('aria-controls')!)!;
      new MutationObserver(() => {
        if (panelElement.dataset.open === 'true') noted.open ??= performance.now();
      }).observe(panelElement, { attributes: true });
    });
    await item.hover();
    await expect.poll(() => panel.getAttribute('data-open')).toBe('true');
    const times = await page.evaluate(() => (window as unknown as { hoverTimes: { enter: number; open: number } }).hoverTimes);
    expect(times.open - times.enter).toBeGreaterThanOrEqual(HEADER_HOVER_DELAY_MS);
    expect(await item.getAttribute('aria-expanded')).toBe('true');
    // As tall as what it holds (test/collisions.test.ts), never taller than the design's 350 px.
    expect(await panel.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(350.5);
    await page.mouse.move(5, 900);
    await expect.poll(() => panel.getAttribute('data-open')).toBe('false');

    const services = page.locator('a.nav-link', { hasText: '患者服务' });
    await services.hover();
    const servicesPanel = page.locator(`#${await services.getAttribute('aria-controls')}`);
    await expect.poll(() => servicesPanel.getAttribute('data-open')).toBe('true');
    expect(await servicesPanel.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(300.5);
    expect(await servicesPanel.locator('a').count()).toBeGreaterThanOrEqual(8 + 3);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keyboard: focus opens a panel, Escape closes it', async () => {
    const { page } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const item = page.locator('a.nav-link', { hasText: '新闻媒体' });
    const panel = page.locator(`#${await item.getAttribute('aria-controls')}`);
    await item.focus();
    await expect.poll(() => panel.getAttribute('data-open')).toBe('true');
    expect(await item.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.getAttribute('data-open')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('新闻媒体');
    await page.context().close();
  });

  it('the home header turns solid after scrolling past 10 px, and back', async () => {
    const { page } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/`);
    const header = page.locator('header.site-header');
    expect(await header.getAttribute('data-solid')).toBe('false');
    // Scrolled at once: solid when the scroll listener, attached a moment after load, first reads the offset.
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect.poll(() => header.getAttribute('data-solid'), { timeout: 5_000 }).toBe('true');
    // Then by the listener, either way.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => header.getAttribute('data-solid')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect.poll(() => header.getAttribute('data-solid')).toBe('true');
    await page.context().close();
  });

  it('the title is right after client-side navigation', { timeout: 60_000 }, async () => {
    const { page, problems } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/`);
    await page.locator('a.nav-link', { hasText: '专家团队' }).click();
    await expect.poll(() => page.title()).toBe('专家团队');
    expect(new URL(page.url()).pathname).toBe('/zjxz/index');
    // The expert page's portraits, each made on its first request, may hold the browser's six
    // connections to the site for a few seconds: the next page's script and data wait for one.
    await page.locator('a.nav-link', { hasText: '联系我们' }).click();
    await expect.poll(() => page.title(), { timeout: 30_000 }).toBe('联系我们');
    await page.goBack();
    await expect.poll(() => page.title(), { timeout: 20_000 }).toBe('专家团队');
    // An expert's page is titled by the expert, then the page's name: the same after a
    // client-side navigation as in the server's HTML.
    const name = (await page.locator('.expert-card a.stretched-link').first().textContent())!.trim();
    await page.locator('.expert-card a.stretched-link').first().click();
    await expect.poll(() => page.title(), { timeout: 20_000 }).toBe(`${name} - 专家详情`);
    const served = await fetch(page.url()).then((r) => r.text());
    expect(/<title>([^<]*)<\/title>/.exec(served)?.[1]).toBe(`${name} - 专家详情`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it(
    'a first view runs no loader: their code and the content API’s arrive with the first navigation, which draws its data',
    { timeout: 60_000 },
    async () => {
      const { page, problems } = await openPage(browser);
      const scripts: string[] = [];
      const apiCalls: string[] = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/assets/') && path.endsWith('.js')) scripts.push(path);
        if (path.startsWith('/api/')) apiCalls.push(path);
      });
      const onNavigation = /\/(route-loaders|browser-content-api)-[\w-]+\.js$/;
      await gotoHydrated(page, `${svc.url}/`);
      expect(scripts.filter((s) => onNavigation.test(s))).toEqual([]);
      expect(apiCalls).toEqual([]);
      await page.locator('a.nav-link', { hasText: '国内医院' }).click();
      // The home page's portraits, each made on its first request, may hold the browser's six
      // connections for a few seconds: the navigation's code and data wait for one.
      await expect.poll(() => page.title(), { timeout: 20_000 }).toBe('国内医院');
      // The page is drawn from what its loader read, its hospitals named as the content names them.
      const names = demoContent.domesticHospitals.map((h) => h.name);
      await expect.poll(() => page.locator('main').textContent()).toContain(names[0]);
      expect(
        scripts
          .filter((s) => onNavigation.test(s))
          .map((s) => onNavigation.exec(s)![1])
          .sort(),
      ).toEqual(['browser-content-api', 'route-loaders']);
      expect(apiCalls).toContain('/api/domestic-hospitals');
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('a client-side navigation adds no image preload: the first screen\u2019s picture is fetched by itself', async () => {
    const { page, problems } = await openPage(browser);
    await gotoHydrated(page, `${svc.url}/`);
    const preloads = () =>
      page.evaluate(() => Array.from(document.querySelectorAll('link[rel=preload][as=image]'), (l) => l.getAttribute('imagesrcset')));
    const fromServer = await preloads();
    expect(fromServer.length).toBeGreaterThan(0);
    await page.locator('a.nav-link', { hasText: '新闻媒体' }).click();
    await expect.poll(() => page.title()).toBe('新闻媒体');
    const firstScreenLoaded = () =>
      page.evaluate(() => {
        const drawn = Array.from(document.querySelectorAll('img[fetchpriority=high]')).filter(
          (img) => img.getBoundingClientRect().width > 0,
        );
        return drawn.length > 0 && drawn.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);
      });
    await expect.poll(firstScreenLoaded, { timeout: 20_000 }).toBe(true);
    expect(await preloads()).toEqual(fromServer);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('scales the body to viewport / 1920 from 1707 px, holds 1707 / 1920 below, 1 at 400 px, and on resize', async () => {
    const least = SCALED_MIN_WIDTH_PX / DESIGN_WIDTH_PX;
    const { page } = await openPage(browser, { width: 1800, height: 800 });
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const zoom = () => page.evaluate(() => Number(getComputedStyle(document.body).zoom));
    expect(await zoom()).toBeCloseTo(1800 / 1920, 3);
    for (const [width, factor] of [
      [1920, 1],
      [2560, 2560 / 1920],
      [1707, 1707 / 1920],
      [1280, least],
      [960, least],
      [400, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(zoom, { message: `${width} px` }).toBeCloseTo(factor, 3);
    }
    await page.context().close();
  });

  it('a window resized while its document still arrives is scaled to its new width once the document is whole; rescaling raises no error', async () => {
    // The end of the page held back until the window has been resized.
    const resized = deferred();
    const held = await documentProxy(svc.url, async (res, html) => {
      const cut = html.indexOf('</main>');
      res.write(html.slice(0, cut));
      await resized.promise;
      res.end(html.slice(cut));
    });
    try {
      const { page, problems } = await openPage(browser, { width: 1800, height: 800 });
      await page.addInitScript(() => addEventListener('error', (event) => console.error(`error event: ${event.message}`)));
      await page.goto(`${proxyUrl(held)}/lxwm/index`, { waitUntil: 'commit' });
      await page.waitForSelector('main');
      expect(await page.evaluate(() => document.readyState)).toBe('loading');
      await page.setViewportSize({ width: 2560, height: 800 });
      resized.resolve();
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      const zoom = () => page.evaluate(() => Number(getComputedStyle(document.body).zoom));
      expect(await zoom()).toBeCloseTo(2560 / 1920, 3);
      for (const width of [1280, 1920]) await page.setViewportSize({ width, height: 800 });
      await expect.poll(zoom).toBeCloseTo(1, 3);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      resized.resolve();
      held.closeAllConnections();
      held.close();
    }
  });

  it('a Firefox user agent gets a transform, not zoom', async () => {
    const { page } = await openPage(browser, { width: 1280, height: 800, userAgent: FIREFOX_UA });
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const style = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return { zoom: s.zoom, transform: s.transform };
    });
    expect(style.zoom).toBe('1');
    const [a, b, c, d] = /^matrix\(([^)]+)\)$/.exec(style.transform)![1]!.split(',').map(Number);
    expect(a).toBeCloseTo(SCALED_MIN_WIDTH_PX / DESIGN_WIDTH_PX, 4);
    expect(d).toBeCloseTo(SCALED_MIN_WIDTH_PX / DESIGN_WIDTH_PX, 4);
    expect([b, c]).toEqual([0, 0]);
    await page.context().close();
  });

  it('at 390 px the header collapses behind a menu button', async () => {
    const { page } = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const toggle = page.locator('button.menu-toggle');
    expect(await toggle.isVisible()).toBe(true);
    expect(await page.locator('#site-nav a.nav-link').first().isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#site-nav a.nav-link').first().isVisible()).toBe(true);
    await page.context().close();
  });

  it('without JavaScript every page shows its content and every header link', async () => {
    const { page } = await openPage(browser, { javaScriptEnabled: false });
    await page.goto(`${svc.url}/zjxz/index`);
    expect(await page.locator('a.nav-link').count()).toBe(9);
    expect(await page.locator('main').innerText()).toContain(demoContent.experts[0]!.name);
    await page.context().close();
  });
});
