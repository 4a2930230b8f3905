import { chromium } from 'playwright-core';
const base = `http://127.0.0.1:${process.argv[2]}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [width, url, name, sel] of [
  [390, '/', 'home-390', '.news-column'],
  [1280, '/', 'home-1280', '.news-columns'],
  [390, '/gnyy/detail?id=203', 'article-390', 'main'],
  [1920, '/', 'home-1920', '.expert-grid'],
  [390, '/lxwm/index', 'contact-390', '.branch-list'],
] as const) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(base + url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 120000 });
  await page.locator(sel).first().screenshot({ path: `/tmp/bx-${name}.png` });
  await ctx.close();
}
await browser.close();
