/** Pages rendered by the real service (production build): statuses, titles, header, scaling, safety. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { APP_MODULES_META } from '../shared/site/head-script.js';
import { ROUTES } from '../shared/site/route-table.js';
import { PAGE_MAX } from '../shared/constants.js';
import { escapeHtml } from '../shared/escape-json.js';

const PAGE_ROUTES = Object.values(ROUTES);
import { headOf, meta } from './support/page-head.js';
import { sample, sampleUrl } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const CLIENT_DIR = 'dist/client';
const HEADER_LABELS = ['首页', '集团简介', '患者服务', '国内医院', '国际医院', '专家团队', '学术研究', '新闻媒体', '联系我们'];

const { news: newsItem, expert } = sample;

function titleOf(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

function navLabels(html: string): string[] {
  return [...html.matchAll(/<a[^>]*class="nav-link[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1]!.trim());
}

describe('pages', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({}, { clientDir: CLIENT_DIR });
  });
  afterAll(() => svc.close());

  /** A page about one item is titled by the item, then the page's name (docs/product/routes.md). */
  const ITEM_TITLES: Partial<Record<string, string>> = {
    '/hzhf/kpzsDetail': sample.article.title,
    '/gnyy/detail': sample.news.title,
    '/zjxz/detail': sample.expert.name,
    '/gnyy/yyxq': sample.hospital.name,
  };

  it.each(PAGE_ROUTES.map((r) => [r.path, r.title] as const))(
    '%s answers 200 titled %s with the nine header items',
    async (path, title) => {
      const res = await request(svc.url).get(sampleUrl(path)).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const item = ITEM_TITLES[path];
      expect(titleOf(res.text)).toBe(item === undefined ? title : `${escapeHtml(item)} - ${title}`);
      expect(res.text).toMatch(/^<!doctype html><html lang="zh-CN" data-scale="zoom">/);
      expect(navLabels(res.text)).toEqual(HEADER_LABELS);
      expect(res.text).toContain('<main');
      expect(res.text).toContain('<footer');
      expect(res.text).toMatch(/<meta name="description" content="[^"]+">/);
      expect(res.text).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+[^"]*">/);
      expect(res.text).toContain('<script type="application/json" id="__router-data">');
    },
  );

  it("names the current route's chunk in the head and carries the CSS inline", async () => {
    const res = await request(svc.url).get('/zjxz/index').expect(200);
    const head = headOf(res.text);
    const modules = meta(res.text, APP_MODULES_META)!.split(' ');
    expect(modules[0]).toMatch(/^\/assets\/entry-client-[\w-]+\.js$/);
    expect(modules.some((m) => /^\/assets\/experts-page-[\w-]+\.js$/.test(m))).toBe(true);
    // The site's CSS is in the head itself: the first paint waits on no stylesheet request.
    expect(head).toMatch(/<style>html\{[^<]+<\/style>/);
    expect(head).not.toContain('rel="stylesheet"');
    expect(head).not.toMatch(/home-page/);
  });

  it.each([
    ['/no/such/page'],
    ['/zjxz/detail?id=999999'],
    ['/gnyy/detail?id=abc'],
    ['/hzhf/kpzsDetail'],
    ['/news/index?id=15'],
    ['/hzhf/kpzs?page=0'],
    ['/hzhf/kpzs?page=999'],
    ['/zjxz/index?page=50'],
    [`/news/index?id=20&page=${PAGE_MAX}`],
  ])('%s is a 404 page titled 页面未找到 inside the layout', async (url) => {
    const res = await request(svc.url).get(url).expect(404);
    expect(titleOf(res.text)).toBe('页面未找到');
    expect(res.text).toContain('页面未找到');
    expect(navLabels(res.text)).toEqual(HEADER_LABELS);
    expect(res.text).toContain('<meta name="robots" content="noindex">');
  });

  it('the header is transparent on the home page and solid elsewhere, in the server HTML', async () => {
    const home = await request(svc.url).get('/').expect(200);
    expect(home.text).toMatch(/<header[^>]*class="site-header[^"]*"[^>]*data-solid="false"/);
    const other = await request(svc.url).get('/lxwm/index').expect(200);
    expect(other.text).toMatch(/<header[^>]*class="site-header[^"]*"[^>]*data-solid="true"/);
  });

  it('shows the featured treatment named by title', async () => {
    const t = demoContent.treatments[2]!;
    const res = await request(svc.url)
      .get(`/hzhf/tszl?id=5&name=${encodeURIComponent('特色治疗')}&title=${encodeURIComponent(t.title)}`)
      .expect(200);
    expect(res.text).toContain(t.summary);
  });

  it('footer carries the contact content and the copyright line', async () => {
    const res = await request(svc.url).get('/').expect(200);
    const footer = res.text.slice(res.text.indexOf('<footer'));
    expect(footer).toContain(demoContent.contactUs.phone);
    expect(footer).toContain(demoContent.contactUs.address);
    expect(footer).toContain('2004-2024');
    for (const id of [15, 16, 19, 20, 21]) expect(footer).toMatch(new RegExp(`href="[^"]*\\?id=${id}[&"]`));
  });

  it.each([
    ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'transform'],
    [
      'Edge',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      'transform',
    ],
    [
      'Opera',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36 OPR/114.0.0.0',
      'transform',
    ],
    ['Chrome', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', 'zoom'],
    [
      'Safari',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'zoom',
    ],
    ['no User-Agent', '', 'zoom'],
    ['a huge User-Agent', 'x'.repeat(6000), 'zoom'],
  ])('%s gets %s scaling', async (_name, ua, mode) => {
    const res = await request(svc.url).get('/lxwm/index').set('user-agent', ua).expect(200);
    expect(res.text).toContain(`data-scale="${mode}"`);
  });

  it('sends a CSP that allows only our own scripts and the hashed scale script', async () => {
    const res = await request(svc.url).get('/').expect(200);
    const csp = res.headers['content-security-policy']!;
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    // One inline executable script (the hashed scale script); the data scripts (hydration, JSON-LD) are not executable.
    expect(res.text.match(/<script>/g)).toHaveLength(1);
    expect(res.text.match(/<script(?![^>]*(type="module" src=|type="application\/(ld\+)?json"))[^>]*>/g)).toEqual(['<script>']);
  });

  it('serves robots.txt and a sitemap of the routes and every detail page', async () => {
    const robots = await request(svc.url).get('/robots.txt').expect(200);
    expect(robots.text).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap.xml/);
    const sitemap = await request(svc.url).get('/sitemap.xml').expect(200);
    expect(sitemap.headers['content-type']).toMatch(/xml/);
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBe(18 + demoContent.contentItems.length + demoContent.experts.length + demoContent.domesticHospitals.length);
    expect(locs.some((l) => l.endsWith('/lxwm/index'))).toBe(true);
    expect(locs.some((l) => l.endsWith(`/gnyy/detail?id=${newsItem.id}`))).toBe(true);
    expect(locs.some((l) => l.endsWith(`/zjxz/detail?id=${expert.id}`))).toBe(true);
    expect(locs.some((l) => l.endsWith(`/gnyy/yyxq?id=${sample.hospital.id}`))).toBe(true);
  });

  it('a path that looks like another host stays on this origin', async () => {
    const res = await request(svc.url).get('//evil.example/lxwm/index').expect(404);
    expect(res.text).not.toContain('evil.example"');
  });

  it('the Host header has no effect on canonical links', async () => {
    const res = await request(svc.url).get('/lxwm/index').set('host', 'evil.example').set('x-forwarded-host', 'evil.example').expect(200);
    expect(res.text).not.toContain('evil.example');
  });
});

describe('pages with hostile upstream content', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  const hostile: DemoContent = structuredClone(demoContent);
  hostile.groupIntroduction.content =
    '<p>介绍</p><script>window.__pwned=1</script><img src="/media/brand/logo.svg" onerror="window.__pwned=2" alt="x">' +
    '<a href="javascript:window.__pwned=3">链接</a><img src="data:image/svg+xml,<svg onload=alert(1)>" alt="d"><svg><script>1</script></svg>';
  hostile.groupIntroduction.culture[0]!.title = '<script>window.__pwned=4</script>使命';
  const detail = hostile.contentItems[0]!;
  detail.content = '<p onclick="x()">正文</p><iframe src="https://evil.example"></iframe><style>body{display:none}</style>';

  beforeAll(async () => {
    upstream = await startTestUpstream(hostile);
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: CLIENT_DIR });
  });
  afterAll(async () => {
    await svc.close();
    await upstream.stop();
  });

  it('removes scripts, event handlers, javascript: and data: URLs from upstream HTML', async () => {
    const res = await request(svc.url).get('/jtjj/qywh').expect(200);
    expect(res.text).toContain('介绍');
    expect(res.text).not.toMatch(/__pwned=[123]/);
    expect(res.text).not.toMatch(/onerror|javascript:|data:image/);
    // Plain-text fields are escaped (a title by the one escape, as typeset: client/typeset/), never parsed as HTML.
    expect(res.text).not.toContain('<script>window.__pwned=4');
    expect(res.text).toContain(escapeHtml('<script>window.__pwned=4'));
  });

  it('the proxy API serves the sanitised HTML too', async () => {
    const res = await request(svc.url).get(`/api/news/${detail.id}`).expect(200);
    expect(res.body.data.content).toBe('<p>正文</p>');
  });

  it('hydration data cannot break out of its script element', async () => {
    const res = await request(svc.url).get('/jtjj/qywh').expect(200);
    const data = /<script type="application\/json" id="__router-data">([\s\S]*?)<\/script>/.exec(res.text)![1]!;
    expect(data).not.toMatch(/<\/?script/i);
    const parsed = JSON.parse(data);
    expect(JSON.stringify(parsed)).toContain('<script>window.__pwned=4</script>使命');
  });
});

describe('pages when the content API is down and nothing is cached', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  beforeAll(async () => {
    upstream = await startTestUpstream();
    await upstream.stop();
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: CLIENT_DIR });
  });
  afterAll(() => svc.close());

  it('answers 503 with the Chinese error state inside the normal layout', async () => {
    const res = await request(svc.url).get('/zjxz/index').expect(503);
    expect(titleOf(res.text)).toBe('暂时无法访问');
    expect(res.text).toContain('内容暂时无法加载');
    expect(navLabels(res.text)).toEqual(HEADER_LABELS);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the sitemap 503, and does not try to build it again on every request (docs/decisions/032)', async () => {
    await request(svc.url).get('/sitemap.xml').expect(503);
    const tried = svc.logs.filter((l) => l.msg === 'sitemap could not be built').length;
    expect(tried).toBe(1);
    for (const path of ['/sitemap.xml', '/sitemap-2.xml', '/sitemap.xml']) await request(svc.url).get(path).expect(503);
    expect(svc.logs.filter((l) => l.msg === 'sitemap could not be built')).toHaveLength(tried);
  });
});
