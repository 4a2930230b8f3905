// Pages with a warm cache (data, and HTML when the service has an HTML cache) against a raw
// node:http server answering the same HTML bytes (status, headers, compressed body), in the
// same run. Requests carry a desktop Chrome User-Agent and `Accept-Encoding: gzip, br`.
import { isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { BROWSER_HEADERS, PAGES, rawBaseline, rawGet, storedResponse, type StoredResponse } from './harness/http.js';
import { ensureBuild, ensureWrk } from './harness/processes.js';
import { profileService } from './harness/profile.js';
import { commandLine, measureSection } from './harness/results.js';
import { startService } from './harness/service.js';
import { compare, wrk, type Compared } from './harness/wrk.js';

const ROUNDS = 3;
const SECONDS = 2;
const TARGET = 0.5;

/** Fetch every page a few times (fills the data cache and any HTML cache), then store one answer per page. */
export async function warmAndStore(serviceUrl: string, pages: Record<string, string> = PAGES) {
  const routes: Record<string, StoredResponse> = {};
  for (const path of Object.values(pages)) {
    for (let i = 0; i < 3; i++) await rawGet(serviceUrl + path, BROWSER_HEADERS);
    const answer = await rawGet(serviceUrl + path, BROWSER_HEADERS);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    routes[path] = storedResponse(answer);
  }
  return routes;
}

/** Each page's figures: the service's and the baseline's (and others), by target. */
export type PageResults = Record<string, Record<string, Compared>>;

export function pageRows(results: PageResults, routes: Record<string, StoredResponse>) {
  return Object.entries(PAGES).map(([name, path]) => {
    const { service: s, baseline: b } = results[name] as { service: Compared; baseline: Compared };
    const r = routes[path] as StoredResponse;
    const ratio = s.rps / b.rps;
    return [
      `${name} \`${decodeURIComponent(path)}\` (${Buffer.from(r.body, 'base64').length} B ${r.headers['content-encoding'] ?? 'identity'})`,
      fmt(s.rps),
      fmt(s.p50, 2),
      fmt(s.p99, 2),
      fmt(b.rps),
      fmt(b.p50, 2),
      fmt(b.p99, 2),
      fmt(ratio, 2),
      fmt(s.p99 / b.p99, 2),
      s.errors || s.socketErrors ? `${s.errors} non-2xx ${s.socketErrors}` : '0',
    ];
  });
}

export const PAGE_HEAD = [
  'page',
  'req/s',
  'p50 ms',
  'p99 ms',
  'baseline req/s',
  'baseline p50',
  'baseline p99',
  'throughput ratio',
  'p99 ratio',
  'service errors',
];

export async function benchPages() {
  ensureWrk();
  ensureBuild();
  const service = await startService();
  try {
    const routes = await warmAndStore(service.url);
    const results: PageResults = {};
    let quietHome: Compared | undefined;
    const baseline = await rawBaseline('pages', { routes });
    try {
      // For the home page, also the service without its per-request log line (LOG_LEVEL=warn):
      // how much of the gap the request log accounts for.
      const quiet = await startService({ env: { LOG_LEVEL: 'warn' } });
      try {
        await warmAndStore(quiet.url, { home: PAGES.home });
        for (const [name, path] of Object.entries(PAGES)) {
          const targets: Record<string, string> = { service: service.url + path, baseline: baseline.url + path };
          if (path === PAGES.home) targets.quiet = quiet.url + path;
          results[name] = compare(targets, { rounds: ROUNDS, seconds: SECONDS, headers: BROWSER_HEADERS });
        }
        quietHome = results.home?.quiet;
      } finally {
        await quiet.stop();
      }
    } finally {
      await baseline.stop();
    }
    const rows = pageRows(results, routes);
    const b = results.home?.baseline;
    if (!quietHome || !b) throw new Error('the home page was not measured');
    rows.push([
      'home `/`, service with `LOG_LEVEL=warn` (no request log line)',
      fmt(quietHome.rps),
      fmt(quietHome.p50, 2),
      fmt(quietHome.p99, 2),
      fmt(b.rps),
      fmt(b.p50, 2),
      fmt(b.p99, 2),
      fmt(quietHome.rps / b.rps, 2),
      fmt(quietHome.p99 / b.p99, 2),
      String(quietHome.errors),
    ]);
    const ratios = Object.values(results).map((r) => r.service!.rps / r.baseline!.rps);
    const met = ratios.every((r) => r >= TARGET);
    const tableText = table(PAGE_HEAD, rows);
    const markdown = `## Pages, warm cache, vs raw node:http answering the same HTML bytes

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target and page, medians; headers
\`User-Agent\` (desktop Chrome), \`Accept-Encoding: gzip, br\`, \`Accept: text/html…\`. Each page was
fetched 4 times first (data cache warm; HTML cache warm if the service has one). The baseline
serves, per URL, the status, headers and compressed body the service gave for that URL. The last row is a
second service instance with \`LOG_LEVEL=warn\`, measured in the same rounds as the home page (not part of the target).

${tableText}

Target: throughput ≥ ${TARGET} × baseline on every page — **${met ? 'met' : 'not met'}** (ratios ${ratios.map((r) => fmt(r, 2)).join(', ')}).
`;
    return { results, rows, ratios, met, table: tableText, markdown };
  } finally {
    await service.stop();
  }
}

/** Where the time goes: the service under --cpu-prof while wrk loads the home page. */
export async function profilePages(seconds = 4) {
  const summary = await profileService(async (url) => {
    await warmAndStore(url);
    wrk(url + PAGES.home, { seconds, headers: BROWSER_HEADERS });
  });
  return `### Where the time goes (home page, warm cache)

The service under \`node --cpu-prof\` while \`wrk -t1 -c50 -d${seconds}s\` requests \`/\` with the browser
headers (one run, after the measurements above). Top self-time functions:

${summary}
`;
}

export const runPages = () => measureSection('pages', benchPages, () => profilePages());

if (isMain(import.meta.url)) console.log((await runPages()).markdown);
