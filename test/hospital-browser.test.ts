/**
 * Hospitals and doctors as a visitor meets them, in Chromium against the built service: the
 * opening state the server drew is the one the browser hydrates (no mismatch), in Shanghai's time
 * and Sydney's, and the browser's own clock takes over at the hour; the header's hospital panels
 * at 1280 px; the doctor finder on a phone; an expert's call kept on a phone's screen; and the
 * check that every hospital's name and phone number is a link of its kind (run on every page by
 * the every-page pass) finds what it should.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { hospitalHref, telHref } from '../shared/site/href.js';
import { consoleProblems, gotoHydrated, launchChromium, openPage, type WatchedPage } from './support/browser.js';
import { unlinkedNamesAndPhones } from './support/page-checks/links.js';
import { searchReady } from './support/search.js';
import { startService, type RunningService } from './support/start-service.js';

const shanghai = demoContent.domesticHospitals[0]!;
const sydney = demoContent.internationalHospitals[0]!;
const state = (page: Page) => page.locator('.hours-state').textContent();

describe('hospitals and doctors in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => {
    // The service's clock is the test's (vitest's Date, running), so that its pages are drawn at chosen instants.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    svc = await startService({}, { clientDir: 'dist/client' });
    await searchReady(svc.url);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    vi.useRealTimers();
  });

  /** A page opened with the browser's clock at `browserAt`, the server's at `serverAt`. */
  async function openAt(path: string, serverAt: number, browserAt: number, width = 1280): Promise<WatchedPage> {
    vi.setSystemTime(serverAt);
    const w = await openPage(browser, { width, height: 900 });
    await w.page.clock.install({ time: browserAt });
    await gotoHydrated(w.page, svc.url + path);
    return w;
  }

  it("hydrates the server's opening state as drawn, in each hospital's own time zone, and changes it at the hour", async () => {
    // Monday 7 December 2026, 16:58 in Shanghai (19:58 in Sydney): both clocks run, and a loaded
    // machine may take seconds to hydrate.
    const monday = Date.parse('2026-12-07T08:58:00Z');
    const w = await openAt(hospitalHref(shanghai), monday, monday);
    expect(await state(w.page)).toBe('正在营业');
    // Two minutes on, it is 17:00 in Shanghai: the page changes without being loaded again.
    await w.page.clock.fastForward(125_000);
    await expect.poll(() => state(w.page)).toBe('已休息');
    expect(await w.page.locator('.hours-next').textContent()).toBe('明日 08:00 开诊');
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();

    // Saturday 12 December, 12:58 in Sydney.
    const saturday = Date.parse('2026-12-12T01:58:00Z');
    const s = await openAt('/gjws/index', saturday, saturday);
    expect(await state(s.page)).toBe('正在营业');
    await s.page.clock.fastForward(125_000);
    await expect.poll(() => state(s.page)).toBe('已休息');
    expect(await s.page.locator('.hours-next').textContent()).toBe('周一 08:30 开诊');
    expect(consoleProblems(s)).toEqual([]);
    await s.page.context().close();
  });

  it("reads each hospital's clock from the offset its page carries, making no time-zone formatter: on a phone, making one was the longest piece of hydration", async () => {
    for (const path of [hospitalHref(shanghai), '/gjws/index']) {
      const w = await openPage(browser, { width: 390, height: 844 });
      await w.page.addInitScript(() => {
        const counted = window as unknown as { zonedFormats: number };
        counted.zonedFormats = 0;
        Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
          construct(target, args: [string?, Intl.DateTimeFormatOptions?]) {
            if (args[1]?.timeZone) counted.zonedFormats++;
            return Reflect.construct(target, args);
          },
        });
      });
      await gotoHydrated(w.page, svc.url + path);
      // After the timer hydration set (at once) to read the hours at the browser's own clock.
      await w.page.evaluate(() => new Promise((done) => setTimeout(done, 0)));
      expect(await state(w.page), path).toMatch(/^(正在营业|已休息)$/);
      expect(await w.page.evaluate(() => (window as unknown as { zonedFormats: number }).zonedFormats), path).toBe(0);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  it('a page drawn before the hour and opened after it shows the state at the browser’s clock, without a hydration mismatch', async () => {
    // Drawn (and kept) at 16:59 in Shanghai; read in a browser whose clock says 17:01.
    const drawn = Date.parse('2026-12-14T08:59:00Z');
    vi.setSystemTime(drawn);
    const w = await openPage(browser, { width: 1280, height: 900 });
    await w.page.clock.install({ time: drawn + 120_000 });
    const res = (await w.page.goto(svc.url + hospitalHref(shanghai)))!;
    expect(await res.text()).toContain('data-open="true">正在营业');
    await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect.poll(() => state(w.page)).toBe('已休息');
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('at 1280 px, 国内医院 opens the hospitals by city and 国际医院 the Sydney hospital; 学术研究 and 新闻媒体 leave no empty third', async () => {
    vi.setSystemTime(Date.now());
    const w = await openPage(browser, { width: 1280, height: 900 });
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    const open = async (label: string) => {
      await w.page.locator('.nav-link', { hasText: label }).hover();
      const panel = w.page.locator('.header-panel[data-open="true"]');
      await panel.waitFor({ state: 'visible' });
      return panel;
    };
    const domestic = await open('国内医院');
    const links = await domestic.locator('.panel-city-link').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    // Each hospital is one tile that leads to its page: its city over its name.
    expect(links).toEqual(demoContent.domesticHospitals.map((h) => [`${h.city}${h.name}`, hospitalHref(h)]));
    expect(await domestic.locator('.panel-city').allTextContents()).toEqual(demoContent.domesticHospitals.map((h) => h.city));

    const abroad = await open('国际医院');
    expect(await abroad.locator('.panel-hospital-city').textContent()).toBe('悉尼');
    const name = abroad.locator('.panel-hospital-link');
    expect((await name.textContent())!.replaceAll('\u2060', '')).toBe(sydney.name);
    expect(await name.getAttribute('href')).toBe('/gjws/index');
    expect(await abroad.locator('.panel-figure').evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBeGreaterThan(
      100,
    );
    // Its one tile that named the page again is gone: the hospital is the panel.
    expect(await abroad.locator('.panel-links').count()).toBe(0);

    for (const label of ['国内医院', '国际医院', '学术研究', '新闻媒体']) {
      const panel = await open(label);
      // What the panel holds reaches its column's right edge: no third left empty.
      const gap = await panel.locator('.panel-inner').evaluate((inner) => {
        const edge = inner.getBoundingClientRect().right - parseFloat(getComputedStyle(inner).paddingRight);
        const reach = Math.max(...Array.from(inner.children).map((c) => c.getBoundingClientRect().right));
        return (edge - reach) / inner.getBoundingClientRect().width;
      });
      expect(gap, label).toBeLessThan(0.02);
    }
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('on a phone (390 px) the finder is one line above the first doctor, who is on the first screen; it opens to links that filter', async () => {
    vi.setSystemTime(Date.now());
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/zjxz/index`);
    const fold = w.page.locator('.finder-fold');
    expect(await fold.locator('summary').isVisible()).toBe(true);
    expect(await w.page.locator('.finder-rows').isVisible()).toBe(false);
    const summary = (await fold.locator('summary').boundingBox())!;
    const first = (await w.page.locator('.expert-card').first().boundingBox())!;
    expect(summary.height).toBeLessThan(80);
    expect(first.y).toBeGreaterThan(summary.y + summary.height - 1);
    // The first doctor's name and call are on the first screen.
    const name = (await w.page.locator('.expert-card .expert-name').first().boundingBox())!;
    expect(name.y + name.height).toBeLessThanOrEqual(844);
    await fold.locator('summary').click();
    const chip = fold.locator('.filter-link', { hasText: '眼底病' });
    await chip.click();
    await w.page.waitForURL(/specialty=/);
    await w.page.waitForFunction(() => document.querySelectorAll('.expert-card').length === 2);
    expect(decodeURIComponent(new URL(w.page.url()).search)).toBe('?specialty=眼底病');
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it("on a phone an expert's page keeps the call to the expert's hospital on screen; on a wide screen it sits by the clinic days", async () => {
    vi.setSystemTime(Date.now());
    const expert = demoContent.experts[0]!;
    const phone = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(phone.page, `${svc.url}/zjxz/detail?id=${expert.id}`);
    const bar = phone.page.locator('.doctor-sticky .doctor-call');
    // At the page's top and with the biography at the window's top, while the profile is read.
    const biography = await phone.page.evaluate(() => document.querySelector('.profile-columns')!.getBoundingClientRect().top);
    for (const y of [0, biography]) {
      await phone.page.evaluate((y) => scrollTo(0, y), y);
      const box = (await bar.boundingBox())!;
      expect(box.y + box.height, `scrolled to ${y}`).toBeLessThanOrEqual(844);
      expect(box.y, `scrolled to ${y}`).toBeGreaterThan(700);
    }
    // At the profile's end it stays in its place, before the footer, which it never covers.
    await phone.page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    const [callBottom, footerTop] = await phone.page.evaluate(() => [
      document.querySelector('.doctor-sticky')!.getBoundingClientRect().bottom,
      document.querySelector('.site-footer')!.getBoundingClientRect().top,
    ]);
    expect(callBottom).toBeLessThanOrEqual(footerTop);
    expect(await bar.getAttribute('href')).toBe(telHref(shanghai.phone));
    expect((await bar.textContent())!.replace(/\s+/g, ' ')).toBe(`预约${expert.name}医生：致电 ${shanghai.phone}`);
    expect(await phone.page.locator('.profile-booking .doctor-call').isVisible()).toBe(false);
    expect(consoleProblems(phone)).toEqual([]);
    await phone.page.context().close();

    const wide = await openPage(browser, { width: 1280, height: 900 });
    await gotoHydrated(wide.page, `${svc.url}/zjxz/detail?id=${expert.id}`);
    expect(await wide.page.locator('.doctor-sticky').isVisible()).toBe(false);
    const call = wide.page.locator('.profile-booking .doctor-call');
    expect(await call.isVisible()).toBe(true);
    expect(await wide.page.locator('.profile-booking .clinic-week li').count()).toBe(expert.schedule.length);
    expect(await wide.page.locator('.expert-hospital a').getAttribute('href')).toBe(hospitalHref(shanghai));
    await wide.page.context().close();
  });

  it('the link check finds a hospital named without a link to its page and a number that does not dial', async () => {
    vi.setSystemTime(Date.now());
    const w = await openPage(browser, { width: 1280, height: 900 });
    for (const path of ['/', '/lxwm/index', hospitalHref(shanghai), '/zjxz/index', `/zjxz/detail?id=${demoContent.experts[0]!.id}`]) {
      await gotoHydrated(w.page, svc.url + path);
      expect(await unlinkedNamesAndPhones(w.page), path).toEqual([]);
    }
    await w.page.evaluate(
      ([a, b, phone]) => {
        const main = document.querySelector('main')!;
        main.insertAdjacentHTML('beforeend', `<p class="bare">${a}</p><a class="wrong" href="/gnyy/index">${b}</a>`);
        main.insertAdjacentHTML('beforeend', `<span class="plain">电话 ${phone}</span><a class="other" href="tel:000">${phone}</a>`);
      },
      [shanghai.name, demoContent.domesticHospitals[1]!.name, shanghai.phone],
    );
    expect(await unlinkedNamesAndPhones(w.page)).toEqual([
      `p.bare names ${shanghai.name} without a link`,
      `a.wrong names ${demoContent.domesticHospitals[1]!.name} in a link to /gnyy/index`,
      `span.plain writes ${shanghai.phone} without a tel: link`,
      `a.other writes ${shanghai.phone} in a link to tel:000`,
    ]);
    await w.page.context().close();
  });
});
