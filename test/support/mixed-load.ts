/**
 * The mixed load of ordinary traffic (issue 49), driven against a site at `base` over `connections`
 * keep-alive connections for a set time: 45 % pages across 16 routes (three of them detail pages
 * over a dozen items each, as a desktop, a phone and a Firefox ask for them), 20 % the content API's
 * paths, 15 % pictures at /_media/ as the home page asks for them (read from the home page itself,
 * again every few seconds, since the addresses name each original's version once it is known), 13 %
 * searches (the results page and /api/search; one in five words new), 7 % addresses that are no route.
 * bench/memory-soak.ts runs it against one process and test/deploy.test.ts against the image;
 * bench/soak.ts rotates over its content API paths.
 *
 * Imports packages only: bench/ imports this file as it is.
 */
import { Pool } from 'undici';

export type RequestClass = 'page' | 'api' | 'picture' | 'search' | 'unknown';

const SHARES: [RequestClass, number][] = [
  ['page', 45],
  ['api', 20],
  ['picture', 15],
  ['search', 13],
  ['unknown', 7],
];

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const PAGES: (string | ((n: number) => string))[] = [
  '/',
  '/jtjj/qywh',
  '/jtjj/fzlc',
  '/jtjj/ryjx',
  `/hzhf/tszl?id=5&name=${encodeURIComponent('特色治疗')}`,
  `/hzhf/kpzs?id=6&name=${encodeURIComponent('科普知识')}`,
  (n) => `/hzhf/kpzsDetail?id=${pick(ids(101, 118), n)}`,
  `/hzhf/zlsb?id=7&name=${encodeURIComponent('治疗设备')}`,
  '/gjws/index',
  '/zjxz/index',
  (n) => `/zjxz/detail?id=${pick(ids(1, 12), n)}`,
  `/xsyj/xsyj?id=15&name=${encodeURIComponent('科研创新')}`,
  (n) =>
    pick(
      [19, 20, 21].map((id, i) => `/news/index?id=${id}&name=${encodeURIComponent(['集团新闻', '医院新闻', '媒体报道'][i]!)}`),
      n,
    ),
  '/gnyy/index',
  (n) => `/gnyy/detail?id=${pick(ids(221, 232), n)}`,
  '/lxwm/index',
];

/** The content API's list paths, as the site's pages ask for them. */
export const API_PATHS = [
  '/api/group-introduction',
  '/api/banner',
  '/api/specialty-treatment',
  '/api/expert-group',
  '/api/news-media',
  '/api/patient-service-categories',
  '/api/categories/6/articles',
  '/api/award-honors',
  '/api/promotions',
  '/api/domestic-hospitals',
  '/api/international-hospitals',
  '/api/experts',
  '/api/academic-research-categories',
  '/api/academic-research?categoryId=15',
  '/api/news-categories',
  '/api/news?categoryId=19&page=1&pageSize=9',
  '/api/contact-us',
  '/api/academic-research-categories/17/children',
  '/api/academic-research-categories/18/children',
];
/** One item's path, the n-th of a dozen that exist. */
export const API_ITEMS = [(n: number) => `/api/experts/${pick(ids(1, 12), n)}`, (n: number) => `/api/news/${pick(ids(201, 212), n)}`];

const WORDS = [
  '白内障',
  '近视',
  '青光眼',
  '眼底',
  '干眼',
  '斜视',
  '弱视',
  '角膜',
  '激光',
  '儿童',
  '专家',
  '手术',
  '视网膜',
  '屈光',
  '黄斑',
  'baineizhang',
];

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const PICTURE_ACCEPT = ['image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'image/webp,*/*'];

/** A picture address list older than this is read again from the home page. */
const PICTURES_EVERY_MS = 5_000;

function pick<T>(list: readonly T[], n: number): T {
  return list[Math.floor(n * list.length) % list.length]!;
}

/** Seeded, so that two runs ask for the same things in the same order (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ClassTally {
  answers: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Requests that got no answer (reset, timeout), by error code. */
  failures: Record<string, number>;
}

export interface MixedLoadReport {
  seconds: number;
  answers: number;
  /** Answers with a 5xx status, and requests that got no answer. */
  serverErrors: number;
  failures: number;
  byClass: Record<RequestClass, ClassTally>;
  p50Ms: number;
  p99Ms: number;
  /** Distinct picture addresses the home page named. */
  pictures: number;
}

export interface MixedLoadOptions {
  base: string;
  connections?: number;
  seconds: number;
  seed?: number;
  /** Ends the load once this many answers came (to compare runs at equal work on a busy machine). */
  answers?: number;
}

interface Request {
  kind: RequestClass;
  path: string;
  headers: Record<string, string>;
}

/** The two screens pictures are chosen for: a desktop's window and a phone's (CSS pixels, device pixel ratio). */
const SCREENS = [
  { agent: CHROME, width: 1920, density: 1 },
  { agent: PHONE, width: 390, density: 3 },
];

/** Splits at `separator` outside parentheses. */
function splitTop(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && separator.test(text[i]!)) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  return [...parts, text.slice(from)].map((p) => p.trim());
}

/** A length of `sizes` in CSS pixels on a window `vw` wide: px, vw, calc() of a sum, max(), min(). */
function cssLength(expr: string, vw: number): number {
  const fn = /^(calc|max|min)\((.*)\)$/.exec(expr.trim());
  if (fn?.[1] === 'max' || fn?.[1] === 'min') return Math[fn[1]](...splitTop(fn[2]!, /,/).map((a) => cssLength(a, vw)));
  if (fn)
    return [...fn[2]!.matchAll(/([+-]?)\s*([\d.]+)(px|vw)/g)].reduce(
      (sum, [, sign, n, unit]) => sum + (sign === '-' ? -1 : 1) * cssLength(`${n}${unit}`, vw),
      0,
    );
  const [, n, unit] = /^([\d.]+)(px|vw)$/.exec(expr.trim()) ?? [];
  if (n === undefined) throw new Error(`a length this load does not read: ${expr}`);
  return unit === 'vw' ? (Number(n) * vw) / 100 : Number(n);
}

/** Whether a media condition of the home page (`(max-width: …)`, `(min-width: …)`) holds on a window `vw` wide. */
function mediaHolds(condition: string, vw: number): boolean {
  const [, kind, px] = /\((max|min)-width:\s*([\d.]+)px\)/.exec(condition) ?? [];
  return kind === undefined || (kind === 'max' ? vw <= Number(px) : vw >= Number(px));
}

/** The candidate a browser takes from a srcset for `sizes`: the narrowest at least as wide as the slot in device pixels. */
function chosen(srcset: string, sizes: string, screen: (typeof SCREENS)[number]): string | undefined {
  const slot = splitTop(sizes, /,/)
    .map((entry) => /^(\([^)]*\))?\s*(.*)$/.exec(entry)!)
    .find(([, media]) => media === undefined || mediaHolds(media, screen.width));
  const wanted = cssLength(slot?.[2] ?? '100vw', screen.width) * screen.density;
  const candidates = srcset
    .split(',')
    .map((c) => c.trim().split(/\s+/))
    .map(([url, w]) => ({ url: url!, w: Number.parseInt(w ?? '0', 10) }))
    .sort((a, b) => a.w - b.w);
  return (candidates.find((c) => c.w >= wanted) ?? candidates.at(-1))?.url;
}

/** The pictures the home page has a desktop and a phone ask for: one candidate of each image and preload that applies. */
async function homePictures(pool: Pool): Promise<string[]> {
  const found = new Set<string>();
  for (const screen of SCREENS) {
    const res = await pool.request({ path: '/', method: 'GET', headers: { 'user-agent': screen.agent, accept: HTML } });
    const html = await res.body.text();
    for (const [tag] of html.matchAll(/<(?:img|link)\s[^>]*srcset="[^"]*"[^>]*>/gi)) {
      const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
      const srcset = attr('srcset') ?? attr('imagesrcset');
      if (!srcset || !mediaHolds(attr('media') ?? '', screen.width)) continue;
      const url = chosen(srcset, attr('sizes') ?? attr('imagesizes') ?? '100vw', screen);
      if (url) found.add(url);
    }
  }
  return [...found];
}

/** The picture addresses the home page names for a desktop and a phone, as the load asks for them. */
export async function homePictureAddresses(base: string): Promise<string[]> {
  const pool = new Pool(base, { connections: 1 });
  try {
    return await homePictures(pool);
  } finally {
    await pool.close();
  }
}

function nextRequest(next: () => number, pictures: readonly string[]): Request {
  const roll = next() * 100;
  let sum = 0;
  const kind = SHARES.find(([, share]) => roll < (sum += share))?.[0] ?? 'page';
  const agent = pick([CHROME, CHROME, PHONE, FIREFOX], next());
  const page = { 'user-agent': agent, accept: HTML, 'accept-encoding': 'gzip, br' };
  const json = { 'user-agent': CHROME, accept: 'application/json', 'accept-encoding': 'gzip, br' };
  const n = next();
  switch (kind) {
    case 'page': {
      const route = pick(PAGES, n);
      return { kind, path: typeof route === 'string' ? route : route(next()), headers: page };
    }
    case 'api': {
      const item = n < 0.15 ? pick(API_ITEMS, next()) : undefined;
      return { kind, path: item ? item(next()) : pick(API_PATHS, next()), headers: json };
    }
    case 'picture':
      return {
        kind,
        path: pick(pictures, n),
        headers: { 'user-agent': agent, accept: pick(PICTURE_ACCEPT, next()) },
      };
    case 'search': {
      const words = n < 0.2 ? `${pick(WORDS, next())} ${Math.floor(next() * 1e6)}` : pick(WORDS, next());
      const q = encodeURIComponent(words);
      return next() < 0.5 ? { kind, path: `/search?q=${q}`, headers: page } : { kind, path: `/api/search?q=${q}`, headers: json };
    }
    case 'unknown':
      return { kind, path: `/no-such-page-${Math.floor(n * 1e9)}`, headers: page };
  }
}

const quantile = (sorted: Float64Array, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;

/** Drives the mixed load for `seconds` and tallies what came back. */
export async function mixedLoad({
  base,
  connections = 20,
  seconds,
  seed = 49,
  answers = Infinity,
}: MixedLoadOptions): Promise<MixedLoadReport> {
  const pool = new Pool(base, { connections, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const byClass = Object.fromEntries(SHARES.map(([kind]) => [kind, { answers: 0, statuses: {}, failures: {} }])) as Record<
    RequestClass,
    ClassTally
  >;
  const latencies: number[] = [];
  const pictures = new Set<string>();
  let current = await homePictures(pool);
  if (current.length === 0) throw new Error('the home page names no picture');
  for (const p of current) pictures.add(p);
  let readAt = performance.now();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let answered = 0;
  const going = () => performance.now() < deadline && answered < answers;

  async function connection(index: number) {
    const next = random(seed * 1000 + index);
    while (going()) {
      if (performance.now() - readAt > PICTURES_EVERY_MS) {
        readAt = performance.now();
        current = await homePictures(pool).catch(() => current);
        for (const p of current) pictures.add(p);
      }
      const { kind, path, headers } = nextRequest(next, current);
      const tally = byClass[kind];
      const sent = performance.now();
      try {
        const res = await pool.request({ path, method: 'GET', headers });
        await res.body.dump({ limit: Infinity });
        latencies.push(performance.now() - sent);
        answered++;
        tally.answers++;
        tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
      } catch (error) {
        const code = String((error as { code?: string }).code ?? error);
        tally.failures[code] = (tally.failures[code] ?? 0) + 1;
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: connections }, (_, i) => connection(i)));
  } finally {
    await pool.close();
  }
  const tallies = Object.values(byClass);
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds: (performance.now() - started) / 1000,
    answers: answered,
    serverErrors: tallies.reduce(
      (sum, t) => sum + Object.entries(t.statuses).reduce((s, [status, n]) => s + (Number(status) >= 500 ? n : 0), 0),
      0,
    ),
    failures: tallies.reduce((sum, t) => sum + Object.values(t.failures).reduce((s, n) => s + n, 0), 0),
    byClass,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    pictures: pictures.size,
  };
}
