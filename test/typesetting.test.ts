/**
 * Typesetting as drawn: no title, summary or heading ends with a line of one character, and none
 * breaks inside a listed term (client/typeset.ts, docs/product/typesetting.md). Every page and
 * the 404 page (the search page with results, and the header's search with its suggestions) at
 * 1920, 1280 and 390 px in both text sizes are the every-page pass's (test/every-page-*.test.ts,
 * test/support/page-checks/typesetting.ts); here, that the check finds what it should.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { typesetFaults } from './support/page-checks/typesetting.js';
import { type RunningService } from './support/start-service.js';

describe('typesetting, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('finds what it is asked to find: a lonely last character, a term broken across lines', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    await gotoHydrated(w.page, `${svc.url}/`);
    expect(await typesetFaults(w.page)).toEqual([]);
    await w.page.evaluate(() => {
      const lead = document.querySelector<HTMLElement>('.section-lead')!;
      Object.assign(lead.style, { width: '10em', textWrap: 'wrap' });
      lead.textContent = '一二三四五六七八九十一';
      const title = document.querySelector<HTMLElement>('.card-title, .row-title, h3')!;
      Object.assign(title.style, { width: '4em', textWrap: 'wrap' });
      title.textContent = '一二三白内障';
    });
    const found = await typesetFaults(w.page);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/its last line is one character \(一\)$/),
        expect.stringMatching(/breaks inside 白内障$/),
      ]),
    );
    await w.page.context().close();
  });
});
