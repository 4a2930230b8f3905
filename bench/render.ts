// A fresh render: the three pages with the HTML cache off and the data cache warm, against a
// bare node:http + renderToPipeableStream server (bench/bare-render-entry.tsx) rendering the
// same route tree with the same data, in the same run.
import { readFileSync } from 'node:fs';
import { isMain } from './harness/args.js';
import { fmt, fmtRatio, ratio, stamp, table, verdict } from './harness/figures.js';
import { BROWSER_HEADERS, PAGES, rawGet } from './harness/http.js';
import { ROOT, ensureBuild, ensureWrk, rssMiB, startHelper } from './harness/processes.js';
import { buildBareRender, profileService } from './harness/profile.js';
import { commandLine, measureSection } from './harness/results.js';
import { startService, type ServiceProcess } from './harness/service.js';
import { compare, wrk, type Compared } from './harness/wrk.js';
import type { StoredResponse } from './harness/http.js';

/** Each page's figures: the service's and the bare render's. */
type PageResults = Record<string, Record<'service' | 'baseline', Compared>>;

const PAGE_HEAD = [
  'page',
  'req/s',
  'p50 ms',
  'p99 ms',
  'baseline req/s',
  'baseline p50',
  'baseline p99',
  'throughput ratio (rounds)',
  'p99 ratio',
  'service errors',
];

function pageRows(results: PageResults, routes: Record<string, StoredResponse>) {
  return Object.entries(PAGES).map(([name, path]) => {
    const { service: s, baseline: b } = results[name]!;
    const r = routes[path]!;
    return [
      `${name} \`${decodeURIComponent(path)}\` (${Buffer.from(r.body, 'base64').length} B ${r.headers['content-encoding'] ?? 'identity'})`,
      fmt(s.rps),
      fmt(s.p50, 2),
      fmt(s.p99, 2),
      fmt(b.rps),
      fmt(b.p50, 2),
      fmt(b.p99, 2),
      fmtRatio(ratio(s, b)),
      fmt(s.p99 / b.p99, 2),
      s.errors || s.socketErrors ? `${s.errors} non-2xx ${s.socketErrors}` : '0',
    ];
  });
}

const ROUNDS = 3;
const SECONDS = 2;
const TARGET = 0.5;

/**
 * The environment that switches the service's HTML cache off, when the service has one:
 * BENCH_HTML_CACHE_OFF="NAME=value" wins; otherwise a variable of server/settings/config.ts whose name
 * says HTML or PAGE cache, set to 0 (or false/off when that is its kind).
 */
export function htmlCacheOff(): { name: string; candidates: string[] } | undefined {
  const given = process.env.BENCH_HTML_CACHE_OFF;
  if (given) {
    const [name = '', ...value] = given.split('=');
    return { name, candidates: [value.join('=')] };
  }
  let source: string;
  try {
    source = readFileSync(`${ROOT}server/settings/config.ts`, 'utf8');
  } catch {
    return undefined;
  }
  const name = /\b((?:[A-Z0-9]+_)*(?:HTML|PAGE)_CACHE(?:_[A-Z0-9]+)*)\s*:/.exec(source)?.[1];
  if (!name) return undefined;
  return { name, candidates: ['0', 'false', 'off'] };
}

/** Start the service with its HTML cache off (tries the candidate values in turn). */
async function startFreshRenderService(): Promise<{ service: ServiceProcess; how: string; env?: Record<string, string> }> {
  const setting = htmlCacheOff();
  if (!setting)
    return {
      service: await startService(),
      how: 'the service has no HTML cache (no HTML/PAGE_CACHE setting in server/settings/config.ts): every page is a fresh render',
    };
  let lastError: unknown;
  for (const value of setting.candidates) {
    try {
      const service = await startService({ env: { [setting.name]: value } });
      return { service, how: `HTML cache off with \`${setting.name}=${value}\``, env: { [setting.name]: value } };
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`could not start the service with ${setting.name} off: ${String(lastError)}`);
}

export async function benchRender() {
  ensureWrk();
  ensureBuild();
  const script = await buildBareRender();
  const { service, how, env = {} } = await startFreshRenderService();
  try {
    for (const path of Object.values(PAGES)) {
      for (let i = 0; i < 4; i++) await rawGet(service.url + path, BROWSER_HEADERS);
    }
    const bare = await startHelper(script, [service.url, 0]);
    const results: PageResults = {};
    const routes: Record<string, StoredResponse> = {};
    let rss: { service: number; bare: number } | undefined;
    try {
      for (const path of Object.values(PAGES)) {
        // Fills the bare server's data map and head from the service, once.
        for (let i = 0; i < 4; i++) await rawGet(bare.url + path, BROWSER_HEADERS);
        const mine = await rawGet(service.url + path, { ...BROWSER_HEADERS, 'Accept-Encoding': 'identity' });
        const theirs = await rawGet(bare.url + path, { ...BROWSER_HEADERS, 'Accept-Encoding': 'identity' });
        if (!mine.body.equals(theirs.body))
          console.warn(
            `render: ${path}: the bare render's HTML differs from the service's (${theirs.body.length} vs ${mine.body.length} B)`,
          );
        const answer = await rawGet(service.url + path, BROWSER_HEADERS);
        routes[path] = { headers: answer.headers, body: answer.body.toString('base64') };
      }
      for (const [name, path] of Object.entries(PAGES)) {
        results[name] = compare(
          { service: service.url + path, baseline: bare.url + path },
          { rounds: ROUNDS, seconds: SECONDS, headers: BROWSER_HEADERS },
        );
      }
      rss = { service: rssMiB(service.child.pid), bare: rssMiB(bare.child.pid) };
    } finally {
      await bare.stop();
    }
    const ratios = Object.values(results).map((r) => ratio(r.service, r.baseline));
    const verdicts = ratios.map((r) => verdict(r, TARGET));
    const met = verdicts.every((v) => v === 'met');
    const tableText = table(PAGE_HEAD, pageRows(results, routes));
    const markdown = `## Fresh render (HTML cache off, data cache warm) vs bare renderToPipeableStream

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target and page, medians, browser headers as
above. Service: ${how}. Baseline: \`bench/bare-render-entry.tsx\`, built with Vite's SSR build into
\`bench/.build/bare-render/\`: a bare \`node:http\` server running \`createStaticHandler(createRoutes())\`,
\`StaticRouterProvider\` and \`renderToPipeableStream\` per request, content from an in-memory map filled
once from the service's \`/api\` answers, the service's own head for that URL, and the service's own
stream encoder (brotli quality 4 for these headers). Its HTML is byte-identical to the service's (checked each run).
Both run with \`NODE_ENV=production\` and React Router's production build.

${tableText}

Target: throughput ≥ ${TARGET} × baseline on every page, in every round — ${verdicts.map((v) => (v === 'met' ? v : `**${v}**`)).join(', ')} (ratios ${ratios.map(fmtRatio).join(', ')}). Resident memory (VmRSS) after the
measurements: service ${fmt(rss.service)} MiB, bare render ${fmt(rss.bare)} MiB.
`;
    return { results, ratios, met, env, rss, table: tableText, markdown };
  } finally {
    await service.stop();
  }
}

/** Where the time goes in a fresh render of the home page. */
export async function profileRender(env: Record<string, string>, seconds = 4) {
  const summary = await profileService(
    async (url) => {
      for (let i = 0; i < 4; i++) await rawGet(url + PAGES.home, BROWSER_HEADERS);
      wrk(url + PAGES.home, { seconds, headers: BROWSER_HEADERS });
    },
    { env },
  );
  return `### Where the time goes (home page, fresh render)

The service (same settings) under \`node --cpu-prof\` while \`wrk -t1 -c50 -d${seconds}s\` requests \`/\` with the
browser headers. Top self-time functions:

${summary}
`;
}

export const runRender = () => measureSection('render', benchRender, (r) => profileRender(r.env));

if (isMain(import.meta.url)) console.log((await runRender()).markdown);
