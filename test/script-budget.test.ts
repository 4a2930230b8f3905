/**
 * The JavaScript a first view downloads (docs/decisions/030): the home page's scripts, as the real
 * service sends them to a browser that takes brotli, headers included, stay within 100 KB; and
 * the entry is one file that imports no other, so React and the router never arrive as a chunk
 * of their own (React DOM's client included, though the entry evaluates it later). A sampled
 * view's measuring code (client/rum/) is no part of the first view: a file no page names, loaded
 * after the page has (docs/decisions/058; test/rum-browser.test.ts watches when, in Chromium),
 * within a budget of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MODULES_META } from '../shared/site/head-script.js';
import { ROUTES } from '../shared/site/route-table.js';
import { meta } from './support/page-head.js';
import { rawRequest } from './support/raw-http.js';
import { sampleUrl } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';

const BUDGET_BYTES = 100 * 1024;
/** The measuring code a sampled view loads once the page has loaded. */
const MEASURE_BUDGET_BYTES = 5 * 1024;

/** The scripts a page loads, the entry first: its head script reads them from this element. */
const scriptsOf = (html: string): string[] => meta(html, APP_MODULES_META)?.split(' ') ?? [];

/** Bytes on the wire for one script: status line and headers as sent, then the body (brotli but for the smallest files). */
async function transferSize(base: string, path: string): Promise<number> {
  const res = await rawRequest(base, path, { headers: [['accept-encoding', 'br']] });
  expect(res.status).toBe(200);
  const head = `HTTP/1.1 ${res.status}\r\n${Object.entries(res.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return Buffer.byteLength(head) + res.body.length;
}

describe('script budget', () => {
  let svc: RunningService;
  /** The scripts the home page names. */
  let homeScripts: string[];
  beforeAll(async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    homeScripts = scriptsOf((await rawRequest(svc.url, '/')).text);
  });
  afterAll(() => svc.close());

  it("the home page's scripts weigh at most 100 KB on the wire, in three files", async () => {
    // The entry, the home page, and the components it shares with other pages.
    expect(homeScripts).toHaveLength(3);
    let total = 0;
    for (const script of homeScripts) total += await transferSize(svc.url, script);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('a sampled view’s measuring code is one more file, named by no page, at most 5 KB on the wire', async () => {
    const entry = (await rawRequest(svc.url, homeScripts[0]!)).text;
    const measure = /import\(["'`]\.\/(measure-[\w-]+\.js)["'`]\)/.exec(entry)?.[1];
    expect(measure).toBeDefined();
    expect(homeScripts.filter((script) => script.includes('measure'))).toEqual([]);
    expect(await transferSize(svc.url, `/assets/${measure}`)).toBeLessThanOrEqual(MEASURE_BUDGET_BYTES);
  });

  it.each(Object.values(ROUTES).map((r) => [r.path] as const))('%s loads the same entry and its own page file', async (path) => {
    const page = await rawRequest(svc.url, sampleUrl(path));
    expect(page.status).toBe(200);
    const scripts = scriptsOf(page.text);
    expect(scripts[0]).toBe(homeScripts[0]);
    expect(scripts[1]).toMatch(/^\/assets\/[a-z-]+-page-[\w-]+\.js$/);
  });

  it('the entry is one file: it imports no other script statically', async () => {
    const res = await rawRequest(svc.url, homeScripts[0]!);
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThan(100_000);
    // Static imports are `import{…}from"./x.js"` or a bare `import"./x.js"`; dynamic ones `import(\`./x.js\`)`.
    const staticImports = res.text.match(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["'`]\.\/[^"'`]+\.js["'`]/g) ?? [];
    expect(staticImports.map((i) => i.slice(-60))).toEqual([]);
    expect(res.text).toMatch(/import\(["'`]\.\/[^"'`]+-page-[\w-]+\.js["'`]\)/);
    // React DOM's client, which the entry imports dynamically to evaluate it later
    // (docs/decisions/054), stays in the entry's file: the files it imports dynamically are the
    // pages' and those loaded on demand (the RUM's measure, the header search's suggestions, the
    // phrase model a navigation typesets with: docs/decisions/061, the header panels' contents,
    // 语音朗读: docs/decisions/067, the loaders and the content API's code a navigation runs:
    // docs/decisions/071).
    const dynamic = [...res.text.matchAll(/import\(["'`]\.\/([^"'`]+)\.js["'`]\)/g)].map((m) => m[1]!.replace(/-[\w-]{8}$/, ''));
    expect([...new Set(dynamic.filter((name) => !name.endsWith('-page')))].sort()).toEqual([
      'browser-content-api',
      'header-panels',
      'measure',
      'phrase-breaks',
      'read-aloud',
      'route-loaders',
      'search-suggestions',
    ]);
  });
});
