/**
 * Hostile upstream content in real Chromium: a copy of the demo content with XSS payloads in every
 * free-text and HTML field (names, titles, summaries, texts, list items, contact details, the
 * `content` HTML) is served by a test upstream; every page route is rendered, hydrated and
 * navigated client-side, and no payload may run, open a dialog, trip the CSP or survive in the DOM
 * as an event handler, a script, a frame or a javascript:/data: URL.
 */
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { ROUTES } from '../shared/site/route-table.js';

const PAGE_ROUTES = Object.values(ROUTES);
import { gotoHydrated, launchChromium, openPage } from './support/browser.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const CLIENT_DIR = 'dist/client';

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=2">',
  '<a href="javascript:window.__xss=3">x</a>',
  '<svg onload="window.__xss=4">',
  '<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>',
  '"><script>window.__xss=6</script>',
  '</script><script>window.__xss=7</script>',
  '<a href="data:text/html,<script>window.__xss=8</script>">d</a>',
  '<scr<script>ipt>window.__xss=9</scr</script>ipt>',
  "'><img src=x onerror=window.__xss=10>",
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=11">',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=12>">',
  '<!--<img src="--><img src=x onerror=window.__xss=13//">',
  '<details open ontoggle="window.__xss=14">',
  '<a href="&#106;avascript:window.__xss=15">e</a>',
  '<a href="jav&#x09;ascript:window.__xss=16">t</a>',
  '<object data="javascript:window.__xss=17"></object>',
  '<form action="javascript:window.__xss=18"><button>b</button></form>',
  '<base href="javascript:window.__xss=19//">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=20">',
  '<svg><a xlink:href="javascript:window.__xss=21"><text>s</text></a></svg>',
  '<a href=" javascript:window.__xss=22">sp</a>',
  '\u2028\u2029<!--</script><script>window.__xss=23</script>-->',
  '{{constructor.constructor("window.__xss=24")()}}',
  '<style>@import "javascript:window.__xss=25";</style>',
];
/** For internal links (no whitespace allowed by the contract). */
const LINK_PAYLOAD = `"><svg/onload=window.__xss=26><script>window.__xss=27</script>`;

/** Fields that the contract checks as images, links, dates, e-mail, opening hours, time zones or a film's files: left valid so pages render. */
const STRUCTURED = new Set([
  'logo',
  'image',
  'icon',
  'avatar',
  'cover',
  'poster',
  'link',
  'date',
  'email',
  'days',
  'opens',
  'closes',
  'timeZone',
  'src',
  'type',
  'lang',
]);
const TEXT_MAX = 2_000;

/** A deep copy of the demo content with a payload in every free-text field and all of them in every HTML field. */
function hostileContent(): DemoContent {
  const copy = structuredClone(demoContent);
  let n = 0;
  const poison = (text: string): string => {
    const payload = PAYLOADS[n++ % PAYLOADS.length]!;
    const joined = `${text} ${payload}`;
    return joined.length <= TEXT_MAX ? joined : payload;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? poison(v) : walk(v)));
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    for (const [key, field] of Object.entries(obj)) {
      if (STRUCTURED.has(key) && Array.isArray(field)) continue;
      if (typeof field === 'string') {
        if (key === 'content') obj[key] = `${field}${PAYLOADS.join('')}<p>${PAYLOADS.join('</p><p>')}</p>`;
        else if (key === 'link') obj[key] = `${field}${field.includes('?') ? '&' : '?'}q=${LINK_PAYLOAD}`;
        else if (!STRUCTURED.has(key)) obj[key] = poison(field);
      } else {
        obj[key] = walk(field);
      }
    }
    return obj;
  };
  walk(copy);
  return copy;
}

const hostile = hostileContent();
const expert = hostile.experts[0]!;
const article = hostile.contentItems.find((i) => i.categoryId === 6)!;
const newsItem = hostile.contentItems.find((i) => i.categoryId === 19)!;
const hospital = hostile.domesticHospitals[0]!;

function urlFor(path: string): string {
  if (path === '/hzhf/kpzsDetail') return `${path}?id=${article.id}`;
  if (path === '/gnyy/detail') return `${path}?id=${newsItem.id}`;
  if (path === '/zjxz/detail') return `${path}?id=${expert.id}`;
  if (path === '/gnyy/yyxq') return `${path}?id=${hospital.id}`;
  return path;
}

/** Every route, plus pages reached with hostile text in their query (treatment title, category name). */
const URLS = [
  ...PAGE_ROUTES.map((r) => urlFor(r.path)),
  `/hzhf/tszl?id=5&name=${encodeURIComponent(hostile.patientServiceCategories[0]!.name)}&title=${encodeURIComponent(hostile.treatments[2]!.title)}`,
  `/news/index?id=20&name=${encodeURIComponent(PAYLOADS[0]!)}`,
  `/xsyj/jyxw?id=17&sub=22`,
  `/hzhf/kpzs?page=2&title=${encodeURIComponent(PAYLOADS[5]!)}`,
];

interface Watch {
  page: Page;
  problems: string[];
  dialogs: string[];
}

async function watchedPage(browser: Browser): Promise<Watch> {
  const { page, problems } = await openPage(browser);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('popup', (p) => dialogs.push(`popup: ${p.url()}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  return { page, problems, dialogs };
}

/** What the DOM holds that an injected payload could have put there. */
function domProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const URL_ATTRS = new Set([
      'href',
      'src',
      'action',
      'formaction',
      'xlink:href',
      'data',
      'poster',
      'srcset',
      'background',
      'ping',
      'cite',
    ]);
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        if (name.startsWith('on')) found.push(`<${el.tagName}> has ${name}`);
        if (name === 'srcdoc') found.push(`<${el.tagName}> has srcdoc`);
        // Browsers drop ASCII whitespace and controls inside a scheme: "jav\tascript:" is javascript:.
        // eslint-disable-next-line no-control-regex -- exactly the controls a browser drops
        const squeezed = attr.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (URL_ATTRS.has(name) && /^(javascript|vbscript|data):/.test(squeezed))
          found.push(`<${el.tagName} ${name}="${attr.value.slice(0, 60)}">`);
      }
    }
    for (const el of Array.from(
      document.querySelectorAll(
        'iframe, frame, frameset, object, embed, applet, base, meta[http-equiv], form, details[open] > *[ontoggle]',
      ),
    )) {
      // The site's own search forms: a GET to its own search page, harmless wherever it came from.
      if (el instanceof HTMLFormElement && el.getAttribute('action') === '/search' && el.method === 'get') continue;
      found.push(`<${el.tagName.toLowerCase()}> element`);
    }
    const scripts = Array.from(document.scripts);
    for (const s of scripts) {
      if (s.src) {
        const u = new URL(s.src);
        if (u.origin !== location.origin || !u.pathname.startsWith('/assets/')) found.push(`script from ${s.src}`);
      } else if (s.type === 'application/ld+json') {
        // Structured data: a data block in the head, whose text must still be the JSON it was.
        if (s.parentElement !== document.head) found.push(`JSON-LD in <${s.parentElement?.tagName.toLowerCase()}>`);
        try {
          JSON.parse(s.text);
        } catch {
          found.push(`JSON-LD that is not JSON: ${s.text.slice(0, 60)}`);
        }
      } else if (s.type !== 'application/json' && s.parentElement !== document.head) {
        found.push(`inline script in <${s.parentElement?.tagName.toLowerCase()}>: ${s.text.slice(0, 60)}`);
      }
    }
    const inline = scripts.filter((s) => !s.src && s.type !== 'application/json' && s.type !== 'application/ld+json');
    if (inline.length !== 1) found.push(`${inline.length} executable inline scripts (expected only the scale script)`);
    return found;
  });
}

async function expectNothingRan(w: Watch, where: string): Promise<void> {
  const state = await w.page.evaluate(() => {
    const win = window as unknown as { __xss?: unknown; __csp?: string[] };
    return { xss: win.__xss, csp: win.__csp ?? [], parentXss: (window.parent as unknown as { __xss?: unknown }).__xss };
  });
  expect(state.xss, `${where}: window.__xss`).toBeUndefined();
  expect(state.parentXss, `${where}: parent.__xss`).toBeUndefined();
  expect(state.csp, `${where}: CSP violations`).toEqual([]);
  expect(w.dialogs, `${where}: dialogs`).toEqual([]);
  expect(await domProblems(w.page), `${where}: DOM`).toEqual([]);
  expect(
    w.problems.filter((p) => /Content Security Policy|Refused to|__xss/i.test(p)),
    `${where}: console`,
  ).toEqual([]);
  // Relative <img src="x"> survives sanitising (it is this site's own path) and 404s; nothing else may appear.
  expect(
    w.problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p)),
    `${where}: console`,
  ).toEqual([]);
}

describe('hostile upstream content in Chromium', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => {
    upstream = await startTestUpstream(hostile);
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: CLIENT_DIR });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await upstream?.stop();
  });

  it('the hostile content passes the contract, so every page renders it (200, payloads shown as text)', async () => {
    for (const url of URLS) {
      const res = await request(svc.url).get(url);
      expect(res.status, url).toBe(200);
      expect(res.text, url).toContain('window.__xss=');
      // `<` is escaped in text, attributes and the data blocks (hydration JSON, the titles' breaks, JSON-LD): no payload tag reaches the HTML as a tag.
      const html = res.text
        .replace(/<script type="application\/json" id="__router-data">[^<]*<\/script>/, '')
        .replace(/<script type="application\/json" id="__phrases">[^<]*<\/script>/, '')
        .replace(/<script type="application\/ld\+json">[^<]*<\/script>/, '');
      expect(html, url).not.toMatch(/<(script|svg|iframe|object|details|base|meta http-equiv)[\s>][^<]*__xss/i);
    }
    for (const api of [
      '/api/group-introduction',
      '/api/banner',
      '/api/specialty-treatment',
      '/api/experts',
      `/api/experts/${expert.id}`,
      '/api/news?categoryId=19',
      `/api/news/${newsItem.id}`,
      '/api/contact-us',
      '/api/domestic-hospitals',
      '/api/international-hospitals',
    ]) {
      await request(svc.url).get(api).expect(200);
    }
  });

  it('the detectors work: an injected handler is caught by the CSP listener and the DOM check', async () => {
    const w = await watchedPage(browser);
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    await w.page.evaluate(() =>
      document.body.insertAdjacentHTML('beforeend', '<img id="canary" src="/nope.png" onerror="window.__xss=99">'),
    );
    await expect.poll(() => w.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.length)).toBeGreaterThan(0);
    expect(await w.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await domProblems(w.page)).toContain('<IMG> has onerror');
    await w.page.context().close();
  });

  // Visits to every route: longer than one test's default on a busy machine.
  it('no payload runs on any route, server-rendered and hydrated', { timeout: 90_000 }, async () => {
    const w = await watchedPage(browser);
    for (const url of URLS) {
      const res = await w.page.goto(svc.url + url);
      expect(res?.status(), url).toBe(200);
      await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      expect(await w.page.locator('body').innerText(), url).toContain('window.__xss=');
      await expectNothingRan(w, url);
    }
    await w.page.context().close();
  });

  it(
    'no payload runs through client-side navigations (data fetched from /api and rendered in the browser)',
    { timeout: 90_000 },
    async () => {
      const w = await watchedPage(browser);
      const page = w.page;
      await gotoHydrated(page, `${svc.url}/`);
      await expectNothingRan(w, 'home');

      const nav = async (label: string, title: string) => {
        await page.locator('a.nav-link', { hasText: label }).first().click();
        await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(title);
        await expectNothingRan(w, `nav ${label}`);
      };
      // An item's page is titled by the item, then the page's name.
      const follow = async (selector: string, pageName: string) => {
        await page.locator(selector).first().click();
        await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(new RegExp(`. - ${pageName}$`));
        await expectNothingRan(w, `follow ${selector}`);
      };

      // A banner's button leads to its (hostile) internal link.
      await page.locator('.carousel a.btn-primary').first().click();
      await expect.poll(() => page.url()).toContain('q=');
      await page.waitForLoadState();
      await expectNothingRan(w, 'banner link');

      await nav('专家团队', '专家团队');
      await follow('.expert-card a.stretched-link', '专家详情');
      await nav('新闻媒体', '新闻媒体');
      await follow('main .content-card a.stretched-link, main a.row-title', '报道详情');
      await nav('集团简介', '企业文化');
      await nav('联系我们', '联系我们');
      await nav('国际医院', '国际医院');
      await nav('患者服务', '特色治疗');
      await page.goBack();
      await expect.poll(() => page.title()).toBe('国际医院');
      await expectNothingRan(w, 'back');

      // Open a header panel, whose lead text comes from the upstream.
      const about = page.locator('a.nav-link', { hasText: '集团简介' });
      await about.hover();
      const panel = page.locator(`#${await about.getAttribute('aria-controls')}`);
      await expect.poll(() => panel.getAttribute('data-open')).toBe('true');
      await expectNothingRan(w, 'header panel');

      // Follow every link the sanitised rich text kept: none may run anything.
      await gotoHydrated(page, `${svc.url}/jtjj/qywh`);
      const hrefs = await page.locator('.rich-text a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      for (const href of hrefs) expect(href, 'rich-text link').not.toMatch(/^\s*(javascript|data|vbscript):/i);
      await expectNothingRan(w, 'rich text');
      await page.context().close();
    },
  );
});
