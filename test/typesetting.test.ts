/**
 * Typesetting as drawn (client/typeset/, docs/product/typesetting.md). Every page and the 404 page
 * (the search page with results, and the header's search with its suggestions) at 1920, 1280 and
 * 390 px in both text sizes are the every-page pass's (test/every-page-*.test.ts,
 * test/support/page-checks/typesetting.ts); here, that the check finds what it should, and, on
 * headlines the demo content does not have (made up below), that titles break only between the
 * phrases BudouX finds, the same after a navigation in the browser as from the server, and that
 * what a visitor copies is the content's text exactly.
 */
import { Parser, zhHansModel } from 'budoux';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { contentHref, href } from '../shared/site/href.js';
import {
  consoleProblems,
  gotoHydrated,
  launchChromium,
  openPage,
  startSiteAndChromium,
  stopSiteAndChromium,
  windowAt,
} from './support/browser.js';
import { drawnPhrases, typesetFaults, type DrawnPhrases } from './support/page-checks/typesetting.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

describe('typesetting, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('finds what it is asked to find: a lonely last character, a line broken inside a phrase', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    await gotoHydrated(w.page, `${svc.url}/`);
    expect(await typesetFaults(w.page)).toEqual([]);
    await w.page.evaluate(() => {
      const lead = document.querySelector<HTMLElement>('.section-lead')!;
      Object.assign(lead.style, { width: '10em', textWrap: 'wrap' });
      lead.textContent = '一二三四五六七八九十一';
      // A title whose phrases may break anywhere, as text without them does.
      const phrases = document.querySelector<HTMLElement>('.row-title .phrases')!;
      phrases.style.wordBreak = 'normal';
      Object.assign(phrases.parentElement!.style, { width: '3em', textWrap: 'wrap' });
    });
    const found = await typesetFaults(w.page);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/its last line is one character \(一\)$/),
        expect.stringMatching(/^a\.row-title.*: breaks inside a phrase \(.+\|.+\)$/),
      ]),
    );
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  }, 120_000);
});

/**
 * Headlines and summaries the demo does not have, drawn from pieces by a fixed seed: numbers with
 * and without a space before their unit, Latin words, quotes, brackets and Chinese punctuation.
 */
function madeUpHeadlines(count: number): { title: string; summary: string }[] {
  let seed = 20_261_206;
  const pick = <T>(list: readonly T[]): T => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return list[seed % list.length]!;
  };
  const places = ['杭州明瞳', '厦门院区', '悉尼分院', '成都明瞳眼科', '集团总部', '武汉新院区'];
  const events = ['举办第 3 届', '联合发布', '完成第1000例', '正式启动', '走过二十年，签约共建', '率先开展'];
  const things = [
    '“光明同行”眼健康公益行',
    '《儿童近视防控白皮书（2031 版）》',
    'SMILE Pro 全飞秒手术',
    'AI 眼底筛查平台',
    '角膜塑形镜验配规范',
    '‘一站式’干眼诊疗中心',
  ];
  const tails = [
    '：覆盖 12 个城市、3.5 万名学生',
    '，68岁患者术后视力达 1.0！',
    '——专家解读OCT报告里的 5 个数字',
    '，家长最关心的 7 个问题',
    '（附门诊楼 18 层导航）',
    '？听听视光师怎么说',
  ];
  const reasons = ['据统计', '医生提醒', '数据显示', '项目负责人介绍'];
  return Array.from({ length: count }, () => ({
    title: pick(places) + pick(events) + pick(things) + pick(tails),
    summary: `${pick(reasons)}，${pick(things)}已在 ${pick(['6', '24', '120'])} 家合作医院落地${pick(tails)}，患者可通过“明瞳健康”小程序预约。`,
  }));
}

const budoux = new Parser(zhHansModel);
/** A digit, or a Chinese numeral (二十年). */
const DIGIT = /[\p{Nd}〇一二三四五六七八九十百千万亿两零]/u;
const HAN = /\p{Script=Han}/u;

/** What is wrong with a title's lines: a line that starts inside a BudouX phrase, or parts a number from its unit. */
function lineFaults({ text, lineStarts, wbr }: DrawnPhrases): string[] {
  const phraseStarts = new Set(budoux.parseBoundaries(text));
  const faults: string[] = [];
  const at = (i: number) => `${text.slice(Math.max(0, i - 8), i)}|${text.slice(i, i + 8)}`;
  for (const i of lineStarts) {
    const afterSpace = /\s/.test(text[i - 1]!);
    if (!phraseStarts.has(i) && !afterSpace) faults.push(`a line starts inside a phrase: ${at(i)}`);
    const before = afterSpace ? text[i - 2] : text[i - 1];
    if (before && DIGIT.test(before) && HAN.test(text[i]!)) faults.push(`a number is parted from its unit: ${at(i)}`);
  }
  for (const i of wbr) if (!phraseStarts.has(i)) faults.push(`a <wbr> inside a phrase: ${at(i)}`);
  return faults;
}

describe('headlines the demo content does not have, in Chromium', () => {
  const headlines = madeUpHeadlines(12);
  const groupNews = demoContent.contentItems.filter((item) => item.categoryId === 19);
  let upstream: TestUpstream;
  let svc: RunningService;
  let browser: Browser;
  const article = contentHref(groupNews[0]!);
  const pages = ['/', href('news', { category: 19 }), article];

  beforeAll(async () => {
    const content = structuredClone(demoContent);
    content.contentItems
      .filter((item) => item.categoryId === 19)
      .forEach((item, i) => Object.assign(item, headlines[i % headlines.length]));
    Object.assign(content.banners[0]!, { title: headlines[1]!.title, subtitle: headlines[2]!.summary });
    upstream = await startTestUpstream(content);
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: 'dist/client' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await upstream?.stop();
  });

  /** The made-up headlines and summaries drawn on the page, each with its lines. */
  const madeUp = (drawn: DrawnPhrases[]) => drawn.filter((d) => headlines.some((h) => h.title === d.text || h.summary === d.text));

  it.each([390, 1280, 1920])(
    'breaks their lines only between BudouX’s phrases, a number with its unit, at %i px',
    async (width) => {
      const w = await openPage(browser, windowAt(width));
      let wrapped = 0;
      for (const url of pages) {
        await gotoHydrated(w.page, svc.url + url);
        const drawn = await drawnPhrases(w.page);
        expect(madeUp(drawn).length, url).toBeGreaterThan(0);
        wrapped += madeUp(drawn).filter((d) => d.lineStarts.length > 0).length;
        // Every title on the page, the demo's and the made-up ones.
        expect(drawn.flatMap((d) => lineFaults(d).map((f) => `${url}: ${f}`))).toEqual([]);
        expect((await typesetFaults(w.page)).map((f) => `${url}: ${f}`)).toEqual([]);
      }
      // Not vacuous: headlines were drawn on more than one line at this width.
      expect(wrapped).toBeGreaterThan(2);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    },
    120_000,
  );

  it('writes no invisible character into the page: no word joiner, zero-width space or soft hyphen', async () => {
    const w = await openPage(browser, windowAt(390));
    for (const url of pages) {
      const html = await (await fetch(svc.url + url)).text();
      expect(html, url).not.toMatch(/[\u2060\u200b\u00ad]/);
      await gotoHydrated(w.page, svc.url + url);
      const text = await w.page.evaluate(() => `${document.body.textContent}\n${document.body.innerText}`);
      expect(text, url).not.toMatch(/[\u2060\u200b\u00ad]/);
    }
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  }, 120_000);

  /** Selects the whole of the first element `selector` matches and copies it as a visitor does (Ctrl+C): the clipboard's text and the selection's. */
  async function copy(page: Page, selector: string): Promise<{ clipboard: string; selection: string }> {
    await page.evaluate((s) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(s)!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    }, selector);
    await page.keyboard.press('Control+C');
    return page.evaluate(async () => ({ clipboard: await navigator.clipboard.readText(), selection: getSelection()!.toString() }));
  }

  it('copies back exactly the content’s text: a headline, a summary, an address with a number and its unit', async () => {
    const w = await openPage(browser, windowAt(390));
    await w.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
    await gotoHydrated(w.page, svc.url + article);
    const shown = headlines[0]!;
    // Drawn on several lines, with <wbr>s and a number kept with its unit in the markup.
    const [title] = (await drawnPhrases(w.page)).filter((d) => d.text === shown.title);
    expect(title!.lineStarts.length).toBeGreaterThan(0);
    expect(title!.wbr.length).toBeGreaterThan(0);
    expect(await copy(w.page, 'h1')).toEqual({ clipboard: shown.title, selection: shown.title });
    expect(await copy(w.page, '.article-summary')).toEqual({ clipboard: shown.summary, selection: shown.summary });
    await gotoHydrated(w.page, `${svc.url}${href('contact')}`);
    const address = demoContent.contactUs.branches[0]!.address;
    expect(address).toMatch(/\d \p{Script=Han}/u);
    expect(await copy(w.page, '.branch-row .branch-address')).toEqual({ clipboard: address, selection: address });
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  }, 120_000);

  it('draws a page reached by a navigation in the browser with the breaks its server render has', async () => {
    const w = await openPage(browser, windowAt(390));
    const modelLoads: string[] = [];
    w.page.on('request', (r) => {
      if (/\/phrase-breaks-[\w-]+\.js$/.test(new URL(r.url()).pathname)) modelLoads.push(r.url());
    });
    await gotoHydrated(w.page, `${svc.url}/`);
    // The first view hydrates from the server's breaks: the model is not loaded.
    expect(modelLoads).toEqual([]);
    // The newest of 集团新闻, a made-up headline.
    const link = w.page.locator('a.row-title').filter({ visible: true }).first();
    const [to, title] = [await link.getAttribute('href'), await link.textContent()];
    expect(headlines.map((h) => h.title)).toContain(title);
    await link.click();
    await w.page.locator('h1', { hasText: title! }).waitFor();
    expect(w.page.url()).toBe(svc.url + to);
    expect(modelLoads).toHaveLength(1);
    const navigated = await drawnPhrases(w.page);
    expect(madeUp(navigated).filter((d) => d.lineStarts.length > 0).length).toBeGreaterThan(0);
    await gotoHydrated(w.page, svc.url + to);
    expect(await drawnPhrases(w.page)).toEqual(navigated);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  }, 120_000);
});
