/**
 * Panels and cards that fill their space, measured in real Chromium against the built service:
 * the 国际医院 panel shows the hospital abroad beside its one link, and the contact page sets its
 * opening hours as rows of name and hours in columns, its 预约咨询 card ending with its call at
 * its foot, in both text sizes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

const digits = (phone: string) => phone.replace(/[^\d+]/g, '');

/** Each opening-hours list on the page: its rows' names and hours, where its hours start, and how often its hours break elsewhere than at a space. */
function schedules(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('dl.schedule'), (dl) =>
      Array.from(dl.children, (row) => {
        const dd = row.querySelector('dd')!;
        // The hours are the dd's first text; its note, if any, is a block of its own under them.
        const range = document.createRange();
        range.setStart(dd, 0);
        range.setEnd(dd, dd.querySelector('.schedule-note') ? dd.childNodes.length - 1 : dd.childNodes.length);
        // Where a line breaks in the hours: only at a space (between the days and the times) is tidy.
        const text = range.toString();
        const char = document.createRange();
        // The hours' characters in order, across the phrases they are typeset in (the note left out).
        const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT, {
          acceptNode: (n) => (n.parentElement?.closest('.schedule-note') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
        });
        let untidy = 0;
        let lastTop = -Infinity;
        let previous = '';
        for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
          for (let i = 0; i < node.data.length; i++) {
            char.setStart(node, i);
            char.setEnd(node, i + 1);
            const rect = char.getClientRects()[0];
            if (rect && rect.width > 0) {
              if (rect.top > lastTop + rect.height / 2 && lastTop !== -Infinity && !/\s/.test(previous)) untidy++;
              lastTop = Math.max(lastTop, rect.top);
            }
            previous = node.data[i]!;
          }
        }
        return {
          name: row.querySelector('dt')!.textContent,
          hours: text,
          note: dd.querySelector('.schedule-note')?.textContent,
          left: Math.round(dd.getBoundingClientRect().left),
          untidy,
        };
      }),
    ),
  );
}

describe('places that fill their space', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('the 国际医院 panel shows the hospital abroad itself: its picture, city, name leading to its page, and a line of its summary', async () => {
    const hospital = demoContent.internationalHospitals[0]!;
    const w = await openPage(browser, { width: 1920, height: 1080 });
    try {
      await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
      const item = w.page.locator('.nav-link', { hasText: '国际医院' });
      await item.focus();
      const panel = w.page.locator(`#${await item.getAttribute('aria-controls')}`);
      await expect.poll(() => panel.getAttribute('data-open')).toBe('true');
      const shown = panel.locator('.panel-hospital');
      // Its picture loads. Polled: Chromium rejects `decode()` on a lazy picture whose load has not
      // begun yet (the panel opened a moment ago), with EncodingError and no request made.
      const loaded = () => shown.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
      await expect.poll(loaded, { timeout: 45_000, message: "the hospital's picture loads" }).toBe(true);
      const read = (text: string | null) => text?.replaceAll('\u2060', '');
      expect(await shown.locator('.panel-hospital-city').textContent()).toBe(hospital.city);
      expect(read(await shown.locator('.panel-hospital-name').textContent())).toBe(hospital.name);
      expect(await shown.locator('.panel-hospital-name a').getAttribute('href')).toBe('/gjws/index');
      expect(read(await shown.locator('.panel-hospital-summary').textContent())).toBe(
        hospital.summary.slice(0, hospital.summary.indexOf('。') + 1),
      );
      // No tile that names its page again: the hospital fills the panel beside its text, to the column's right edge, picture first.
      expect(await panel.locator('.panel-links').count()).toBe(0);
      const room = await panel.locator('.panel-inner').evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.right - parseFloat(getComputedStyle(el).paddingRight) * (box.width / (el as HTMLElement).offsetWidth);
      });
      const [lead, block, picture] = await Promise.all([
        panel.locator('.panel-lead').boundingBox(),
        shown.boundingBox(),
        shown.locator('img').boundingBox(),
      ]);
      expect(block!.x + block!.width).toBeGreaterThan(room - 2);
      expect(block!.x - (lead!.x + lead!.width)).toBeLessThan(100);
      expect(picture!.x).toBeLessThan(block!.x + 2);
      expect(consoleProblems(w)).toEqual([]);
    } finally {
      await w.page.context().close();
    }
  });

  it.each([
    [1920, false],
    [1280, false],
    [1280, true],
    [390, false],
    [390, true],
  ])(
    'at %i px (large text: %s) the contact page sets its hours as rows in columns and its booking card ends with its call',
    async (width, large) => {
      const w = await openPage(browser, { width, height: 900 });
      try {
        if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
        await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
        const [hours, booking] = await schedules(w.page);
        // 门诊时间：周一至周日 8:00-17:00（法定节假日另行通知）；咨询热线 8:00-20:00
        expect(hours!.map((r) => [r.name, r.hours.trim(), r.note])).toEqual([
          ['门诊时间', '周一至周日 8:00-17:00', '法定节假日另行通知'],
          ['咨询热线', '8:00-20:00', undefined],
        ]);
        expect(booking!.map((r) => [r.name, r.hours.trim()])).toEqual([['预约时间', '每天 8:00-20:00']]);
        for (const list of [hours!, booking!]) {
          // The hours of every row start at one column, each breaking, if at all, only between its days and its times.
          expect(new Set(list.map((r) => r.left)).size).toBe(1);
          expect(list.map((r) => r.untidy)).toEqual(list.map(() => 0));
        }
        const card = await w.page.locator('.booking-call').evaluate((el: HTMLElement) => {
          const box = el.getBoundingClientRect();
          const padding = parseFloat(getComputedStyle(el).paddingBottom) * (box.height / el.offsetHeight);
          const parts = Array.from(el.children, (c) => c.getBoundingClientRect());
          const gaps = parts.slice(1).map((p, i) => p.top - parts[i]!.bottom);
          return { height: box.height, footGap: box.bottom - padding - parts.at(-1)!.bottom, widestGap: Math.max(...gaps) };
        });
        const call = w.page.locator('.booking-call .btn');
        expect(await call.getAttribute('href')).toBe(`tel:${digits(demoContent.contactUs.booking!.phone)}`);
        // The call sits at the card's foot, and no part of the card stands apart from the others by a third of it.
        expect(card.footGap).toBeLessThan(2);
        expect(card.widestGap).toBeLessThan(card.height / 3);
        expect(consoleProblems(w)).toEqual([]);
      } finally {
        await w.page.context().close();
      }
    },
  );
});
