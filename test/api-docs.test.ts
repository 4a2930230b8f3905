/**
 * The API reference page, /api/docs (docs/decisions/024): served by the service from the build
 * (the reference's bundle fingerprinted, precompressed and kept a year), its title and
 * description in Chinese, under a CSP of its own that allows this origin and the document's
 * server only. In Chromium it lists all 21 paths with no console error and no request leaving
 * the service, and its request panel sends a real request and shows the answer.
 */
import request from 'supertest';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../shared/contract/api-paths.js';
import { openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import type { RunningService } from './support/start-service.js';

const SUMMARIES = Object.values(API_PATHS).map((p) => p.summary);

/** The CSP as directive name -> source list. */
function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

describe('/api/docs', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => {
    ({ svc, browser } = await startSiteAndChromium());
  });
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('is a page of its own: Chinese title and description, no inline script, the reference from /assets', async () => {
    const res = await request(svc.url).get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html lang="zh-CN">/);
    expect(res.text).toContain('<title>内容接口参考 | 明瞳眼科医疗集团</title>');
    expect(res.text).toMatch(/<meta name="description" content="明瞳眼科医疗集团内容接口的参考文档[^"]+">/);
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(2);
    // The settings are a data block, never run; the one script is the reference's bundle.
    expect(scripts[0]![1]).toContain('type="application/json"');
    expect(scripts[0]![2]).toBe('');
    expect(scripts[1]![1]).toMatch(/^ src="\/assets\/api-reference-[\w-]{8}\.js"$/);
  });

  it('has a CSP of its own that allows no more than the reference needs', async () => {
    const res = await request(svc.url).get('/api/docs').expect(200);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'http://localhost:*']);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    for (const name of ['base-uri', 'form-action', 'frame-ancestors']) expect(csp.get(name), name).toEqual(["'none'"]);
    expect([...csp.keys()].sort()).toEqual(
      ['base-uri', 'connect-src', 'default-src', 'font-src', 'form-action', 'frame-ancestors', 'img-src', 'script-src', 'style-src'].sort(),
    );
    // A page like the others otherwise: not framed, not read across origins.
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // The site's pages keep theirs.
    const page = await request(svc.url).get('/').expect(200);
    expect(directives(String(page.headers['content-security-policy'])).get('default-src')).toEqual(["'self'"]);
  });

  it("names the document's server in connect-src when PUBLIC_ORIGIN is set", async () => {
    const { startService } = await import('./support/start-service.js');
    const other = await startService({ PUBLIC_ORIGIN: 'https://eye.example' }, { clientDir: 'dist/client' });
    try {
      const res = await request(other.url).get('/api/docs').expect(200);
      expect(directives(String(res.headers['content-security-policy'])).get('connect-src')).toEqual(["'self'", 'https://eye.example']);
    } finally {
      await other.close();
    }
  });

  it("serves the reference's bundle fingerprinted, kept a year, precompressed", async () => {
    const html = (await request(svc.url).get('/api/docs')).text;
    const src = /<script src="([^"]+)"><\/script>/.exec(html)![1]!;
    const res = await request(svc.url)
      .get(src)
      .set('accept-encoding', 'br')
      .buffer(true)
      .parse((r, done) => {
        r.on('data', () => {});
        r.on('end', () => done(null, null));
      });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('answers HEAD, refuses other methods with 405, and is cached briefly', async () => {
    const head = await request(svc.url).head('/api/docs').expect(200);
    expect(head.headers['cache-control']).toBe('public, max-age=300');
    const post = await request(svc.url).post('/api/docs').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body.error.code).toBe('method_not_allowed');
  });

  it('shows all 21 paths in Chromium, with no console error and no request leaving the service', async () => {
    const { page, problems } = await openPage(browser, { width: 1400, height: 900 });
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${svc.url}/api/docs`);
    const sidebar = page.locator('aside').first();
    await sidebar.getByText(SUMMARIES[SUMMARIES.length - 1]!, { exact: true }).waitFor();
    for (const summary of SUMMARIES) await expect(sidebar.getByText(summary, { exact: true }).count(), summary).resolves.toBeGreaterThan(0);
    expect(SUMMARIES).toHaveLength(21);
    // Every section of the site is a group of the reference.
    for (const tag of ['集团', '患者服务', '医院', '专家', '学术研究', '新闻', '联系我们']) {
      await expect(sidebar.getByText(tag, { exact: true }).count(), tag).resolves.toBeGreaterThan(0);
    }
    expect(await page.title()).toContain('明瞳眼科');
    for (const url of requested) expect(new URL(url).origin, url).toBe(svc.url);
    expect(problems).toEqual([]);
  });

  it('sends a request from its panel and shows the answer', async () => {
    const { page, problems } = await openPage(browser, { width: 1400, height: 900 });
    await page.goto(`${svc.url}/api/docs`);
    await page.getByText('测试请求').first().click();
    // The panel's own shortcut sends the request.
    const answered = page.waitForResponse((r) => /^\/api\/(?!openapi\.json|docs)/.test(new URL(r.url()).pathname));
    await page.keyboard.press('Control+Enter');
    const res = await answered;
    expect(res.status()).toBe(200);
    // Sent to the document's server (this service on localhost), across origins.
    expect(new URL(res.url()).hostname).toBe('localhost');
    await page.getByText('200 OK').first().waitFor();
    expect(problems).toEqual([]);
  });
});
