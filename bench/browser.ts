// Real Chromium: TTFB, FCP, LCP, CLS and the JS/CSS bytes transferred for the home page and a
// list page, at 1920×1080 and at 390×844 with 4× CPU slowdown; median of 5 loads, each in a
// fresh context (empty cache). Baseline in the same run, at 390 px with 4× slowdown: the same
// page's HTML with every <script> element and modulepreload link removed, served as a static
// document with the same CSS and media (bench/browser-baseline-server.ts).
import { writeFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { BASE_FLAGS } from '../test/support/chromium-flags.js';
import { launchOwnChromium } from '../test/support/launch-chromium.js';
import { isMain } from './harness/args.js';
import { fmt, median, quantile, stamp, table } from './harness/figures.js';
import { CHROME_UA, rawGet } from './harness/http.js';
import { keepNamesInPages } from './harness/pages-in-chromium.js';
import { ensureBuild, startHelper, tempPath, type Helper } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';

/** Loads per page and form. The mobile FCP comparison gets more: one load varies by ±30 % here. */
const LOADS = { desktop: 3, mobile: 11 };
const SETTLE_MS = 1_000;
const LOAD_TIMEOUT_MS = 30_000;
const LOAD_LIMIT_MS = 45_000;
const TARGETS = { homeJsKB: 100, cssKB: 30, cls: 0, fcpRatio: 1.2 };

const PAGES = [
  { name: 'home', path: '/', chunk: 'home-page' },
  { name: 'news list', path: `/news/index?id=19&name=${encodeURIComponent('集团新闻')}`, chunk: 'news-page' },
];

const MOBILE_UA = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
interface Form {
  label: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  userAgent: string;
  cpu: number;
}

const FORMS: Record<'desktop' | 'mobile', Form> = {
  desktop: {
    label: '1920×1080',
    viewport: { width: 1920, height: 1080 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    userAgent: CHROME_UA,
    cpu: 1,
  },
  mobile: {
    label: '390×844, 4× CPU',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: MOBILE_UA,
    cpu: 4,
  },
};

declare global {
  interface Window {
    /** Long tasks as [start, duration], observed from the document's start (measure's init script). */
    __longTasks?: [number, number][];
  }
}

interface Vitals {
  ttfb: number | null;
  fcp: number | null;
  lcp: number | null;
  cls: number;
  longBeforeFcp: number;
}

/** Read in the page after load + SETTLE_MS: navigation timing, paint, LCP and CLS. */
function readVitals() {
  return new Promise<Vitals>((resolve) => {
    const nav = performance.getEntriesByType('navigation').find((e): e is PerformanceNavigationTiming => 'responseStart' in e);
    const out: Vitals = {
      ttfb: nav ? nav.responseStart - nav.startTime : null,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      lcp: null,
      cls: 0,
      longBeforeFcp: 0,
    };
    // Main-thread long tasks (collected from the document's start by an init script) before FCP.
    for (const [start, duration] of window.__longTasks ?? []) {
      if (out.fcp !== null && start < out.fcp) out.longBeforeFcp += Math.min(duration, out.fcp - start);
    }
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) out.lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) out.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    // Buffered entries are delivered in a later task.
    setTimeout(() => resolve(out), 100);
  });
}

/** One load in a fresh context: vitals, bytes by CDP resource type, the page chunks requested. */
type Load = Awaited<ReturnType<typeof measure>>;

async function loadOnce(browser: Browser, url: string, form: Form, options: { blockScripts?: boolean } = {}): Promise<Load> {
  const context = await browser.newContext({
    viewport: form.viewport,
    deviceScaleFactor: form.deviceScaleFactor,
    isMobile: form.isMobile,
    hasTouch: form.hasTouch,
    userAgent: form.userAgent,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    // Every load is bounded, whatever hangs (closing the context ends a stuck evaluate).
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${url}: no result within ${LOAD_LIMIT_MS} ms`)), LOAD_LIMIT_MS);
    });
    const work = measure(context, url, form, options);
    work.catch(() => {});
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    await context.close();
  }
}

async function measure(context: BrowserContext, url: string, form: Form, { blockScripts = false } = {}) {
  await keepNamesInPages(context);
  await context.addInitScript(() => {
    window.__longTasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks?.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask' });
    } catch {
      // no long task timing
    }
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = new Map<string, { url: string; type: string; bytes: number }>();
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', bytes: 0 }));
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.type = e.type ?? r.type;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  // Diagnosis: the page's script files are not loaded (the inline head script still runs).
  if (blockScripts) await page.route(/\.js(\?|$)/, (route) => route.abort());
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (form.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: form.cpu });
  const response = await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
  await page.waitForTimeout(SETTLE_MS);
  const vitals = await page.evaluate(readVitals);
  const bytes: Record<string, number> = {};
  for (const r of requests.values()) bytes[r.type] = (bytes[r.type] ?? 0) + r.bytes;
  const scripts = [...requests.values()].filter((r) => r.type === 'Script' || /\.js(\?|$)/.test(r.url)).map((r) => new URL(r.url).pathname);
  const pageChunks = [
    ...new Set(scripts.map((p) => (p.split('/').pop() ?? '').replace(/-[\w-]{8}\.js$/, '')).filter((n) => n.endsWith('-page'))),
  ];
  return { status: response?.status(), ...vitals, bytes, pageChunks, requests: requests.size };
}

function summarise(all: (Load | undefined)[]) {
  const loads = all.filter((l) => l !== undefined);
  const m = (f: (l: Load) => number | null) => median(loads.map((l) => f(l) ?? NaN));
  return {
    ttfb: m((l) => l.ttfb),
    fcp: m((l) => l.fcp),
    lcp: m((l) => l.lcp),
    cls: m((l) => l.cls),
    clsMax: Math.max(...loads.map((l) => l.cls)),
    longBeforeFcp: m((l) => l.longBeforeFcp),
    js: m((l) => l.bytes.Script ?? 0),
    css: m((l) => l.bytes.Stylesheet ?? 0),
    doc: m((l) => l.bytes.Document ?? 0),
    total: m((l) => Object.values(l.bytes).reduce((a, b) => a + b, 0)),
    pageChunks: [...new Set(loads.flatMap((l) => l.pageChunks))],
    statuses: [...new Set(loads.map((l) => l.status))],
  };
}

/** The page's HTML with every <script> element and modulepreload link removed. */
export function stripScripts(html: string) {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '').replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
}

export async function benchBrowser() {
  ensureBuild();
  const service = await startService();
  let baseline: Helper | undefined;
  let browser: Browser | undefined;
  try {
    const stripped: Record<string, string> = {};
    for (const p of PAGES) {
      // Warm the data cache; the baseline gets the document a mobile browser would get.
      await rawGet(service.url + p.path, { 'user-agent': MOBILE_UA });
      const html = await rawGet(service.url + p.path, { 'user-agent': MOBILE_UA, 'accept-encoding': 'identity' });
      stripped[p.path] = stripScripts(html.body.toString('utf8'));
    }
    const file = tempPath('browser.json');
    writeFileSync(file, JSON.stringify(stripped));
    baseline = await startHelper('bench/browser-baseline-server.ts', [file, 0]);
    browser = await launchOwnChromium(BASE_FLAGS);
    const chromium = browser;
    const base = baseline.url;
    // One unmeasured load per target and form: Chromium and the servers warm up.
    for (const form of Object.values(FORMS)) await loadOnce(chromium, service.url + PAGES[0]!.path, form);
    await loadOnce(chromium, base + PAGES[0]!.path, FORMS.mobile);

    const runs: Record<string, (Load | undefined)[]> = {};
    const failures: string[] = [];
    const add = (key: string, value: Load | undefined) => (runs[key] ??= []).push(value);
    /** One measured load; a failed one is counted and reported, not fatal. */
    const tryLoad = async (url: string, form: Form, options?: { blockScripts: boolean }) => {
      try {
        return await loadOnce(chromium, url, form, options);
      } catch (error) {
        failures.push((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '');
        return undefined;
      }
    };
    for (let i = 0; i < LOADS.mobile; i++) {
      for (const p of PAGES) {
        if (i < LOADS.desktop) add(`${p.name}|desktop|service`, await tryLoad(service.url + p.path, FORMS.desktop));
        add(`${p.name}|mobile|service`, await tryLoad(service.url + p.path, FORMS.mobile));
        add(`${p.name}|mobile|baseline`, await tryLoad(base + p.path, FORMS.mobile));
      }
    }
    const s: Summaries = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, summarise(v)]));
    // Each service load ran right before its baseline load: the median of the pairs' ratios is
    // less sensitive to the machine's noise drifting during the run.
    for (const p of PAGES) {
      const xs = runs[`${p.name}|mobile|service`] ?? [];
      const bs = runs[`${p.name}|mobile|baseline`] ?? [];
      const service = s[`${p.name}|mobile|service`];
      const pairs = xs.map((x, i) => ratio(x?.fcp, bs[i]?.fcp)).filter(Number.isFinite);
      if (service) service.pairedFcp = { median: median(pairs), p25: quantile(pairs, 0.25), p75: quantile(pairs, 0.75) };
    }
    // Where a page misses the FCP target: the same page with its script files blocked, to tell
    // script work before the first paint from the document itself.
    for (const p of PAGES) {
      const x = s[`${p.name}|mobile|service`];
      const b = s[`${p.name}|mobile|baseline`];
      if (!x || !b) continue;
      if (!(x.fcp / b.fcp > TARGETS.fcpRatio) && process.env.BENCH_BROWSER_DIAGNOSE !== '1') continue;
      const loads: (Load | undefined)[] = [];
      for (let i = 0; i < LOADS.mobile; i++) loads.push(await tryLoad(service.url + p.path, FORMS.mobile, { blockScripts: true }));
      s[`${p.name}|mobile|service, scripts blocked`] = summarise(loads);
    }
    return report(s, failures);
  } finally {
    await browser?.close();
    await baseline?.stop();
    await service.stop();
  }
}

/** pairedFcp: the FCP ratios of the paired loads, their median and middle half (the noise). */
type Summaries = Record<string, ReturnType<typeof summarise> & { pairedFcp?: { median: number; p25: number; p75: number } }>;

/** a / b, NaN when either is missing. */
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b != null ? a / b : NaN);

const kb = (bytes: number) => fmt(bytes / 1024, 1);

function report(s: Summaries, failures: string[]) {
  const rows: string[][] = [];
  const verdicts: [string, string, boolean][] = [];
  for (const p of PAGES) {
    for (const [formKey, form] of Object.entries(FORMS)) {
      const x = s[`${p.name}|${formKey}|service`];
      const b = s[`${p.name}|${formKey}|baseline`];
      if (!x) throw new Error(`${p.name}, ${form.label}: no load succeeded`);
      const only = x.pageChunks.length === 1 && x.pageChunks[0] === p.chunk;
      rows.push([
        `${p.name} \`${decodeURIComponent(p.path)}\``,
        form.label,
        'service',
        fmt(x.ttfb, 1),
        fmt(x.fcp),
        fmt(x.lcp),
        fmt(x.cls, 4),
        fmt(x.longBeforeFcp),
        kb(x.js),
        kb(x.css),
        kb(x.doc),
        kb(x.total),
        `${x.pageChunks.join(', ') || 'none'} ${only ? '(only its own)' : '(**not only its own**)'}`,
        b ? fmt(x.fcp / b.fcp, 2) : '',
      ]);
      const off = s[`${p.name}|${formKey}|service, scripts blocked`];
      if (off && b) {
        rows.push([
          '',
          form.label,
          'diagnosis: service, script files blocked',
          fmt(off.ttfb, 1),
          fmt(off.fcp),
          fmt(off.lcp),
          fmt(off.cls, 4),
          fmt(off.longBeforeFcp),
          kb(off.js),
          kb(off.css),
          kb(off.doc),
          kb(off.total),
          '—',
          fmt(off.fcp / b.fcp, 2),
        ]);
      }
      if (b) {
        rows.push([
          '',
          form.label,
          'baseline: static HTML, no script',
          fmt(b.ttfb, 1),
          fmt(b.fcp),
          fmt(b.lcp),
          fmt(b.cls, 4),
          fmt(b.longBeforeFcp),
          kb(b.js),
          kb(b.css),
          kb(b.doc),
          kb(b.total),
          '—',
          '1',
        ]);
        // Judged on the paired loads' middle half: met when it lies under the target, missed when above, else within noise.
        const paired = x.pairedFcp ?? { median: NaN, p25: NaN, p75: NaN };
        const fcpVerdict = paired.p75 <= TARGETS.fcpRatio ? 'met' : paired.p25 > TARGETS.fcpRatio ? 'not met' : 'within noise';
        verdicts.push([
          `FCP ratio ≤ ${TARGETS.fcpRatio}×, ${p.name}, ${form.label}`,
          `${fmt(x.fcp / b.fcp, 2)} (paired loads: median ${fmt(paired.median, 2)}, middle half ${fmt(paired.p25, 2)}–${fmt(paired.p75, 2)}; ${fcpVerdict})`,
          fcpVerdict === 'met',
        ]);
      }
      if (p.name === 'home')
        verdicts.push([`home JS ≤ ${TARGETS.homeJsKB} KB, ${form.label}`, `${kb(x.js)} KB`, x.js <= TARGETS.homeJsKB * 1024]);
      verdicts.push([`CSS ≤ ${TARGETS.cssKB} KB, ${p.name}, ${form.label}`, `${kb(x.css)} KB`, x.css <= TARGETS.cssKB * 1024]);
      verdicts.push([`CLS 0 in every load, ${p.name}, ${form.label}`, `max ${fmt(x.clsMax, 4)}`, x.clsMax === 0]);
      verdicts.push([`only ${p.chunk} chunk loaded, ${p.name}, ${form.label}`, x.pageChunks.join(', ') || 'none', only]);
      if (x.statuses.some((st) => st !== 200)) verdicts.push([`status 200, ${p.name}, ${form.label}`, x.statuses.join(', '), false]);
    }
  }
  const markdown = `## Real Chromium: paint, layout shift and bytes

Command: \`${commandLine()}\` (${stamp()}).
Chromium ${'`/usr/bin/chromium`'} headless through playwright-core; each figure the median of ${LOADS.desktop} loads (desktop) or ${LOADS.mobile} (mobile), each in a fresh
context (empty cache, cache disabled), the service's and the baseline's loads alternating; one unmeasured load first.
Desktop: 1920×1080, desktop Chrome User-Agent. Mobile: 390×844 at device scale 3, touch, Android Chrome User-Agent, CPU
slowed 4× (CDP \`Emulation.setCPUThrottlingRate\`). TTFB is \`responseStart\` of the navigation entry; FCP the
\`first-contentful-paint\` entry; LCP the last \`largest-contentful-paint\` entry and CLS the sum of \`layout-shift\` entries
without recent input (PerformanceObserver, \`buffered: true\`), read ${SETTLE_MS} ms after \`load\`. Bytes are transfer sizes
(compressed, headers included): the sum of CDP \`Network.loadingFinished\` \`encodedDataLength\` by resource type, in KB
of 1024 B. Baseline: the service's HTML for that URL (mobile User-Agent) with every \`<script>\` element and modulepreload
link removed, served with the same CSS and media by \`bench/browser-baseline-server.ts\` (brotli 4 from memory).
"Long tasks before FCP" is the main-thread time in long tasks (over 50 ms, \`longtask\` entries observed from the
document's start) that ran before the first contentful paint. Where a page misses the FCP target, the service's page is
loaded ${LOADS.mobile} more times with its \`.js\` requests aborted ("diagnosis" row): if its FCP then matches the baseline's, the
time goes to script work before the first paint, not to the document or the server. The FCP target is judged on the ratio of the
medians; the median of the ratios of back-to-back service/baseline loads is shown beside it.

${table(['page', 'viewport', 'served by', 'TTFB ms', 'FCP ms', 'LCP ms', 'CLS', 'long tasks before FCP, ms', 'JS KB', 'CSS KB', 'HTML KB', 'all KB', 'page chunks requested', 'FCP ratio'], rows)}

${failures.length ? `Failed loads (left out of the medians): ${failures.length}: ${[...new Set(failures)].join('; ')}.\n\n` : ''}Targets:

${table(
  ['target', 'measured', 'met'],
  verdicts.map(([t, v, ok]) => [t, v, ok ? 'yes' : '**no**']),
)}
`;
  return { summary: s, verdicts, met: verdicts.every((v) => v[2]), markdown };
}

export async function runBrowser() {
  const r = await benchBrowser();
  writeSection('browser', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runBrowser()).markdown);
