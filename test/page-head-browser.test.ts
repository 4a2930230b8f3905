/**
 * The head's share data and structured data in real Chromium, with hostile content from a test
 * upstream: a title that tries to end the JSON-LD block (`</script><script>`, `<!--`) leaves the
 * block valid JSON that says the title as text, runs nothing, and trips no Content-Security-Policy
 * (a JSON-LD block is data: the CSP has no hash for it and needs none).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { consoleProblems, gotoHydrated, launchChromium, openPage } from './support/browser.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const HOSTILE = '</script><script>window.__xss=1</script><!--<script>window.__xss=2</script>';

const hostile: DemoContent = structuredClone(demoContent);
const news = hostile.contentItems.find((i) => i.categoryId === 19)!;
news.title = `集团新闻${HOSTILE}`;
news.summary = `摘要${HOSTILE}\u2028\u2029`;
const expert = hostile.experts[0]!;
expert.name = `陈立衡${HOSTILE}`;
hostile.domesticHospitals[0]!.name = `上海明瞳眼科医院${HOSTILE}`;

/** The pages, with what their JSON-LD must say as text. */
const PAGES = [
  { path: `/gnyy/detail?id=${news.id}`, says: news.title },
  { path: `/zjxz/detail?id=${expert.id}`, says: expert.name },
  { path: '/', says: hostile.domesticHospitals[0]!.name },
];

async function cspWatch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
}

describe('the head in Chromium', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => {
    upstream = await startTestUpstream(hostile);
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: 'dist/client' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await upstream?.stop();
  });

  it.each(PAGES)('$path: the JSON-LD block stays JSON holding the hostile text, nothing runs, no CSP violation', async ({ path, says }) => {
    const w = await openPage(browser);
    await cspWatch(w.page);
    const res = await w.page.goto(svc.url + path);
    expect(res?.status()).toBe(200);
    await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    const found = await w.page.evaluate(() => {
      const win = window as unknown as { __xss?: unknown; __csp: string[] };
      const blocks = Array.from(document.querySelectorAll('script[type="application/ld+json"]'));
      return {
        xss: win.__xss,
        csp: win.__csp,
        blocks: blocks.map((b) => ({ inHead: b.parentElement === document.head, text: b.textContent ?? '' })),
        executable: Array.from(document.scripts).filter((s) => !s.src && !/json/.test(s.type)).length,
        ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
      };
    });
    expect(found.xss).toBeUndefined();
    expect(found.csp).toEqual([]);
    // The scale script is the page's one inline executable script.
    expect(found.executable).toBe(1);
    expect(found.blocks).toHaveLength(1);
    expect(found.blocks[0]!.inHead).toBe(true);
    const graph = JSON.parse(found.blocks[0]!.text) as { '@graph': unknown[] };
    expect(JSON.stringify(graph)).toContain(JSON.stringify(says).slice(1, -1));
    if (path !== '/') expect(found.ogTitle).toContain(says);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('the demo site: home, an expert and an article trip no CSP and log nothing', async () => {
    const site = await startService({}, { clientDir: 'dist/client' });
    try {
      const w = await openPage(browser);
      await cspWatch(w.page);
      for (const path of ['/', `/zjxz/detail?id=${demoContent.experts[0]!.id}`, `/hzhf/kpzsDetail?id=${demoContent.contentItems[0]!.id}`]) {
        await gotoHydrated(w.page, site.url + path);
        expect(await w.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), path).toEqual([]);
        expect(await w.page.locator('script[type="application/ld+json"]').count(), path).toBe(1);
      }
      expect(w.problems).toEqual([]);
      await w.page.context().close();
    } finally {
      await site.close();
    }
  });
});
