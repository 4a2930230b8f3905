/**
 * What a visitor sees, measured in real Chromium against the built service: grids without a lone
 * last card, 预约 where a visitor decides, the booking line a phone keeps on screen, maps, browser
 * zoom that enlarges the page, the large-text mode (长者模式) drawn by the server with no layout
 * shift, and the parts below the first screen drawn only as they near the window. On every page
 * (text and targets large enough at a laptop's width, no lone card, nothing past a tablet's or a
 * phone's side, no placeholder text, the booking line, filings and WeChat code a Chinese hospital
 * site carries): the every-page pass (test/every-page-*.test.ts, test/support/page-checks/drawn.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LEADS } from '../shared/site/route-leads.js';
import { ROUTES } from '../shared/site/route-table.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { TEXT_SIZE_CHOSEN_KEY } from '../shared/site/head-script.js';
import { consoleProblems, gotoHydrated, layoutShift, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { loneCards, missingFurniture, notOnePage, pastTheSide, placeholders, smallThings, telOf } from './support/page-checks/drawn.js';
import { loadPictures } from './support/page-checks/pictures.js';
import { sampleUrl } from './support/sample-urls.js';
import { type RunningService } from './support/start-service.js';

const contact = demoContent.contactUs;
const hospitals = [...demoContent.domesticHospitals, ...demoContent.internationalHospitals];

/** The body text's size on screen, in device pixels. */
function deviceTextPx(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector('.rich-text p')!;
    return parseFloat(getComputedStyle(el).fontSize) * (el as HTMLElement).currentCSSZoom * devicePixelRatio;
  });
}

describe('what a visitor sees, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('no grid leaves a card alone on its last row with page 2 of a list, at 1920 and 1280 px (every page: the every-page pass)', async () => {
    const found: string[] = [];
    for (const width of [1920, 1280]) {
      const w = await openPage(browser, { width, height: 900 });
      for (const url of ['/hzhf/kpzs?page=2', '/news/index?id=20&name=医院新闻']) {
        await gotoHydrated(w.page, svc.url + url);
        found.push(...(await loneCards(w.page)).map((g) => `${width} ${url}: ${g}`));
      }
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
    expect(found).toEqual([]);
  });

  it('the every-page checks of what a visitor sees find what they are asked to: small text, a lone card, something past the side, a placeholder, a missing filing, a second copy of the page under another title', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const url = sampleUrl(ROUTES.knowledge.path);
    await gotoHydrated(w.page, svc.url + url);
    expect(await loadPictures(w.page)).toEqual([]);
    const clean = [
      await smallThings(w.page),
      await loneCards(w.page),
      await pastTheSide(w.page),
      await placeholders(w.page),
      await notOnePage(w.page, url),
    ];
    expect([...clean.flat(), ...(await missingFurniture(w.page, true))]).toEqual([]);
    await w.page.evaluate(() => {
      const main = document.querySelector('main')!;
      const tiny = document.createElement('p');
      Object.assign(tiny.style, { fontSize: '8px' });
      tiny.textContent = '小字说明';
      const wide = document.createElement('div');
      Object.assign(wide.style, { width: '3000px', height: '10px' });
      const placeholder = document.createElement('p');
      placeholder.textContent = '请联系某医生';
      main.append(tiny, wide, placeholder);
      // One card more than the grid's full rows hold, and no rule that widens it.
      const grid = document.querySelector<HTMLElement>('.grid3, .grid4, .grid2')!;
      grid.classList.remove('fill');
      const columns = getComputedStyle(grid).gridTemplateColumns.split(' ').length;
      while (grid.children.length % columns !== 1) grid.append(grid.firstElementChild!.cloneNode(true));
      document.querySelector('.footer-filings a')!.remove();
      // What a lazy route not loaded before hydrating does: a second copy of the page.
      document.body.append(document.querySelector('header.site-header')!.cloneNode(true), document.createElement('main'));
      document.title = '明瞳眼科';
    });
    expect(await smallThings(w.page)).toEqual(expect.arrayContaining([expect.stringMatching(/^P\. 7\.1 px: 小字说明$/)]));
    expect(await loneCards(w.page)).not.toEqual([]);
    expect(await pastTheSide(w.page)).not.toEqual([]);
    expect(await placeholders(w.page)).toEqual([expect.stringContaining('请联系某医生')]);
    expect(await missingFurniture(w.page, true)).toEqual([expect.stringMatching(/^filings /)]);
    expect(await notOnePage(w.page, url)).toEqual([
      '2 site headers',
      '2 main elements',
      `title "明瞳眼科", not "${ROUTES.knowledge.title}"`,
    ]);
    await w.page.context().close();
  });

  it('a list whose length the grid does not divide widens its last card across the row', async () => {
    // A sub-category of three items: one row of three on a desktop. In the large-text mode on a
    // tablet the grid has two columns, so the third card is drawn across the second row.
    const w = await openPage(browser, { width: 768, height: 900 });
    await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
    await gotoHydrated(w.page, `${svc.url}/xsyj/jyxw?id=17&name=教育新闻&sub=22`);
    const grid = await w.page.evaluate(() => {
      const g = document.querySelector<HTMLElement>('.card-grid')!;
      return { columns: getComputedStyle(g).gridTemplateColumns.split(' ').length, count: g.children.length };
    });
    expect(grid).toEqual({ columns: 2, count: 3 });
    expect(await loneCards(w.page)).toEqual([]);
    await w.page.context().close();
  });

  it("预约 where a visitor decides: the hero, every expert card (a call to the expert's hospital), the end of a treatment and of an article", async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    const booking = '/lxwm/index#booking';
    await gotoHydrated(w.page, `${svc.url}/`);
    expect(await w.page.locator('.slide[data-current="true"] .slide-actions a', { hasText: '预约' }).getAttribute('href')).toBe(booking);
    for (const url of ['/', '/zjxz/index']) {
      await gotoHydrated(w.page, svc.url + url);
      const cards = w.page.locator('.expert-card');
      const count = await cards.count();
      expect(count, url).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) {
        const book = cards.nth(i).locator('a.expert-book');
        expect(await book.isVisible(), `${url} card ${i}`).toBe(true);
        const name = await cards.nth(i).locator('.expert-name a').textContent();
        const hospital = hospitals.find((h) => h.name === demoContent.experts.find((e) => e.name === name)!.hospital)!;
        expect(await book.getAttribute('href'), `${url} card ${i}`).toBe(telOf(hospital.phone));
        expect(await book.textContent(), `${url} card ${i}`).toBe(`预约${name}医生：致电 ${hospital.phone}`);
        // Above the card's own link: a click books, it does not open the profile.
        await book.scrollIntoViewIfNeeded();
        const box = (await book.boundingBox())!;
        expect(
          await w.page.evaluate(
            ([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.className,
            [box.x + box.width / 2, box.y + box.height / 2],
          ),
        ).toBe('expert-book');
      }
    }
    for (const url of ['/hzhf/tszl', sampleUrl('/hzhf/kpzsDetail')]) {
      await gotoHydrated(w.page, svc.url + url);
      const prompt = w.page.locator('main .booking-prompt');
      expect(await prompt.locator(`a[href="${telOf(contact.booking!.phone)}"]`).isVisible(), url).toBe(true);
      expect(await prompt.locator(`a[href="${booking}"]`).isVisible(), url).toBe(true);
    }
    // A health article also names its reviewing expert and the newest others of its category.
    const article = demoContent.contentItems.find(
      (c) => c.id === Number(new URL(svc.url + sampleUrl('/hzhf/kpzsDetail')).searchParams.get('id')),
    )!;
    const reviewer = demoContent.experts.find((x) => x.id === article.reviewerId)!;
    expect(await w.page.locator('.reviewer-name a').textContent()).toBe(reviewer.name);
    expect(await w.page.locator('.reviewer-name a').getAttribute('href')).toBe(`/zjxz/detail?id=${reviewer.id}`);
    const related = await w.page.locator('.related .card-title a').allTextContents();
    expect(related).toHaveLength(3);
    expect(related).not.toContain(article.title);
    const sameCategory = new Set(demoContent.contentItems.filter((c) => c.categoryId === article.categoryId).map((c) => c.title));
    for (const t of related) expect(sameCategory.has(t), t).toBe(true);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  }, 60_000);

  it('on a phone, a tel link and a 预约 control stay on screen while the page scrolls, and the open menu offers both', async () => {
    for (const large of [false, true]) {
      const w = await openPage(browser, { width: 390, height: 844 });
      if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
      await gotoHydrated(w.page, `${svc.url}/zjxz/index`);
      const onScreen = (selector: string) =>
        w.page.locator(selector).evaluate((el) => {
          const r = el.getBoundingClientRect();
          return (
            getComputedStyle(el).visibility !== 'hidden' && r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
          );
        });
      for (const y of [0, 2000, 100_000]) {
        await w.page.evaluate((y) => scrollTo(0, y), y);
        await w.page.waitForFunction((y) => scrollY > 0 || y === 0, y);
        expect(await onScreen('.top-hotline'), `${large} ${y}`).toBe(true);
        expect(await onScreen('.top-book'), `${large} ${y}`).toBe(true);
      }
      expect(await w.page.locator('.top-hotline').getAttribute('href')).toBe(telOf(contact.booking!.phone));
      expect(await w.page.locator('.top-book').getAttribute('href')).toBe('/lxwm/index#booking');
      // The QR code, shown on the phone itself, says how to use it.
      expect(await w.page.locator('.footer-wechat .wechat-hint').textContent()).toBe('长按识别二维码');
      expect(await w.page.locator('.footer-wechat .wechat-hint').isVisible()).toBe(true);
      await w.page.locator('.menu-toggle').click();
      const menu = w.page.locator('#site-nav .nav-booking');
      expect(await menu.locator(`a[href="${telOf(contact.booking!.phone)}"]`).isVisible()).toBe(true);
      expect(await menu.locator('a[href="/lxwm/index#booking"]').isVisible()).toBe(true);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  it("the footer and the home sections below the first screen are drawn only as they near the window; the header's WeChat link still shows the code", async () => {
    for (const width of [390, 1280]) {
      const w = await openPage(browser, { width, height: 844 });
      await gotoHydrated(w.page, `${svc.url}/`);
      // Skipped: a part's content is not drawn (checkVisibility's contentVisibilityAuto) until it
      // nears the window.
      const drawn = (selector: string) =>
        w.page
          .locator(selector)
          .first()
          .evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
      expect(await drawn('.footer-phone'), `${width}`).toBe(false);
      expect(await drawn('.home-section:last-child h2'), `${width}`).toBe(false);
      expect(await drawn('.home-stats'), `${width}`).toBe(true);
      await w.page.locator('.footer-phone').scrollIntoViewIfNeeded();
      await w.page.waitForFunction(() => document.querySelector('.footer-phone')!.checkVisibility({ contentVisibilityAuto: true }));
      // The WeChat code, a fragment inside the footer, comes on screen drawn: loaded with the
      // fragment, and (where the header shows it) from the header's link.
      const codeShown = () =>
        w.page.waitForFunction(() => {
          const code = document.querySelector('#site-wechat img')!;
          const r = code.getBoundingClientRect();
          return code.checkVisibility({ contentVisibilityAuto: true }) && r.top >= 0 && r.bottom <= innerHeight;
        });
      await gotoHydrated(w.page, `${svc.url}/#site-wechat`);
      await codeShown();
      if (width > 500) {
        await gotoHydrated(w.page, `${svc.url}/`);
        await w.page.locator('.top-wechat').click();
        await codeShown();
      }
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  it('before it is drawn, each part the browser skips is at least as tall as its content, from a phone to a desktop in both text sizes', async () => {
    // Else a contrast checker (Lighthouse's axe-core), which samples what is drawn at each text's
    // place, finds the text of a skipped part on the background of the part after it.
    const found: string[] = [];
    let skipped = 0;
    for (const large of [false, true]) {
      for (const [width, height] of [
        [360, 740],
        [412, 823],
        [768, 1024],
        [1350, 940],
        [1920, 1080],
      ] as const) {
        const w = await openPage(browser, { width, height });
        if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
        await gotoHydrated(w.page, `${svc.url}/`);
        const parts = await w.page.evaluate(() =>
          Array.from(document.querySelectorAll('body *'))
            .filter((el) => getComputedStyle(el).contentVisibility === 'auto')
            .filter((el) => el.firstElementChild && !el.firstElementChild.checkVisibility({ contentVisibilityAuto: true }))
            .map((el) => {
              const box = el.getBoundingClientRect();
              const bottom = Math.max(...Array.from(el.children, (child) => child.getBoundingClientRect().bottom));
              return { part: el.className, box: Math.round(box.height), content: Math.round(bottom - box.top) };
            }),
        );
        skipped += parts.length;
        found.push(
          ...parts.filter((p) => p.content > p.box).map((p) => `${width} px, large ${large}: ${p.part} holds ${p.content} px in ${p.box}`),
        );
        await w.page.context().close();
      }
    }
    expect(found).toEqual([]);
    expect(skipped).toBeGreaterThan(10);
  }, 120_000);

  it('every hospital and the group address open on a map', async () => {
    const w = await openPage(browser);
    const mapLinks = () => w.page.locator('main .map-link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    await gotoHydrated(w.page, `${svc.url}/gnyy/index`);
    expect(await mapLinks()).toEqual(demoContent.domesticHospitals.map((h) => h.mapUrl));
    await gotoHydrated(w.page, `${svc.url}/gjws/index`);
    expect(await mapLinks()).toEqual(demoContent.internationalHospitals.map((h) => h.mapUrl));
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    expect(await mapLinks()).toEqual([contact.mapUrl, ...contact.branches.map((b) => b.mapUrl)]);
    // They open beside the site, without handing it a reference.
    expect(await w.page.locator('main .map-link').first().getAttribute('rel')).toBe('noopener noreferrer');
    expect(await w.page.locator('footer .map-link').getAttribute('href')).toBe(contact.mapUrl);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('browser zoom at 200 % draws text twice as large as at 100 %, without a sideways scroll', async () => {
    for (const [width, height] of [
      [1920, 1080],
      [1280, 800],
    ] as const) {
      const w = await openPage(browser, { width, height });
      await gotoHydrated(w.page, `${svc.url}/hzhf/kpzsDetail?id=101`);
      const atHundred = await deviceTextPx(w.page);
      // What Chromium does at 200 %: the window keeps its size (outerWidth), the viewport halves
      // in CSS px, and devicePixelRatio doubles; the page sees a resize.
      const cdp = await w.page.context().newCDPSession(w.page);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: width / 2, height: height / 2, deviceScaleFactor: 2, mobile: false });
      await w.page.waitForFunction((half) => innerWidth === half && devicePixelRatio === 2, width / 2);
      await expect.poll(() => deviceTextPx(w.page), { message: `${width} px` }).toBeCloseTo(2 * atHundred, 1);
      expect(await w.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      // Back to 100 %: the spec's scaling again.
      await cdp.send('Emulation.clearDeviceMetricsOverride');
      await expect.poll(() => deviceTextPx(w.page)).toBeCloseTo(atHundred, 1);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  it('a screen of a higher pixel ratio is not taken for a zoom: the page is scaled as the spec says', async () => {
    const context = await browser.newContext({ viewport: { width: 1800, height: 800 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await gotoHydrated(page, `${svc.url}/`);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--scale'))).toBe(String(1800 / 1920));
    await context.close();
  });

  it('the 长者模式 switch is in the header at every width, and the mode is drawn by the server, large and unscaled, with no shift', async () => {
    for (const width of [1920, 1280, 768, 390]) {
      const w = await openPage(browser, { width, height: 900 });
      await gotoHydrated(w.page, `${svc.url}/zjxz/index`);
      const toggle = w.page.locator('header .text-size-switch');
      expect(await toggle.isVisible(), `${width}`).toBe(true);
      expect(await toggle.textContent(), `${width}`).toContain('长者模式');
      const box = (await toggle.boundingBox())!;
      expect(box.y + box.height, `${width}`).toBeLessThanOrEqual(200);
      const standard = await w.page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize) * document.body.currentCSSZoom);
      // The switch is a link: the server remembers the mode in a cookie and sends the page back.
      await toggle.click();
      await w.page.waitForURL(`${svc.url}/zjxz/index`);
      await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      const cookies = await w.page.context().cookies(svc.url);
      expect(cookies.find((c) => c.name === TEXT_SIZE_COOKIE)?.value, `${width}`).toBe('large');
      const large = await w.page.evaluate(() => ({
        text: document.documentElement.dataset.text,
        scale: getComputedStyle(document.documentElement).getPropertyValue('--scale'),
        body: parseFloat(getComputedStyle(document.body).fontSize) * document.body.currentCSSZoom,
      }));
      expect(large.text).toBe('large');
      expect(large.scale, `${width}`).toBe('1');
      expect(large.body, `${width}`).toBeGreaterThanOrEqual(20);
      expect(large.body, `${width}`).toBeGreaterThan(standard);
      expect(await layoutShift(w.page), `${width}`).toBe(0);
      // Nothing runs off the side.
      expect(await w.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${width}`).toBe(true);
      // And back.
      await w.page.locator('header .text-size-switch', { hasText: '标准版' }).click();
      await w.page.waitForFunction(() => document.documentElement.dataset.text === undefined);
      // The standard mode needs no cookie; this browser keeps that a mode was chosen (it ends the tablet's prompt: docs/decisions/038).
      expect(
        (await w.page.context().cookies(svc.url)).find((c) => c.name === TEXT_SIZE_COOKIE),
        `${width}`,
      ).toBeUndefined();
      expect(await w.page.evaluate((key) => localStorage.getItem(key), TEXT_SIZE_CHOSEN_KEY), `${width}`).toBe('1');
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  }, 120_000);

  it('the large-text mode is in the server HTML and works without JavaScript', async () => {
    const w = await openPage(browser, { width: 1280, height: 800, javaScriptEnabled: false });
    await w.page.goto(`${svc.url}/lxwm/index`);
    await w.page.locator('.text-size-switch').click();
    await w.page.waitForURL(`${svc.url}/lxwm/index`);
    expect(await w.page.evaluate(() => document.documentElement.dataset.text)).toBe('large');
    expect(await w.page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize))).toBeGreaterThanOrEqual(22);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('the phone menu opens with each section\u2019s pages over a dimmed page, and closes', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    const toggle = w.page.locator('.menu-toggle');
    expect(await toggle.textContent()).toContain('菜单');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.textContent()).toContain('关闭');
    expect(await w.page.locator('#site-nav').isVisible()).toBe(true);
    expect(await w.page.locator('.nav-sub-link', { hasText: '荣誉奖项' }).isVisible()).toBe(true);
    expect(await w.page.locator('.menu-backdrop').isVisible()).toBe(true);
    await w.page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await w.page.locator('#site-nav').isVisible()).toBe(false);
    await toggle.click();
    await w.page.locator('.nav-sub-link', { hasText: '荣誉奖项' }).click();
    await w.page.waitForURL(`${svc.url}/jtjj/ryjx`);
    // The address changes first; the menu closes as the new page is drawn.
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('the 404 page links every section, the expert page names the doctor in its banner, and an item page its list', async () => {
    const w = await openPage(browser);
    await gotoHydrated(w.page, `${svc.url}/no/such/page`);
    expect(await w.page.locator('.error-sections a').allTextContents()).toEqual([
      '集团简介',
      '患者服务',
      '国内医院',
      '国际医院',
      '专家团队',
      '学术研究',
      '新闻媒体',
      '联系我们',
    ]);
    await gotoHydrated(w.page, `${svc.url}/zjxz/detail?id=${demoContent.experts[0]!.id}`);
    expect(await w.page.locator('.page-banner-title').textContent()).toBe(demoContent.experts[0]!.name);
    // An article, a report and a sub-category's item name their list and its line, never 内容详情 or 报道详情.
    const education = demoContent.contentItems.find((i) => i.categoryId === 22)!;
    for (const [url, list] of [
      [sampleUrl('/hzhf/kpzsDetail'), 'knowledge'],
      [sampleUrl('/gnyy/detail'), 'news'],
      [`/hzhf/kpzsDetail?id=${education.id}`, 'educationNews'],
    ] as const) {
      await gotoHydrated(w.page, svc.url + url);
      const title = await w.page.locator('.page-banner-title').textContent();
      expect(title, url).toBe(list === 'news' ? '集团新闻' : ROUTES[list].title);
      expect(await w.page.locator('.page-banner-lead').textContent(), url).toBe(ROUTE_LEADS[list]);
      expect(await w.page.locator('.breadcrumb [aria-current]').textContent(), url).not.toMatch(/内容详情|报道详情/);
    }
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });
});
