// Side by side (`npm run bench -- side-by-side [--rounds=3] [--seconds=4]`): a cached API hit (about
// 100 B) and the warm home page (the whole HTML, uncompressed) from the service with one worker and
// with its default two, from a raw node:http server answering the same bytes, and from nginx with
// proxy_cache in front of the same content (the service's content API for the hit, the raw server's
// HTML for the page) with one worker process and with two: one sitting, one machine, wrk -t1 -c50,
// the targets measured in alternation round after round. The ratios of issue 48's table, each with
// the spread of its rounds; a target is judged against that spread.
import { benchArgs, isMain } from './harness/args.js';
import { fmt, fmtRatio, ratio, stamp, table, verdict, type Ratio } from './harness/figures.js';
import { CHROME_UA, rawBaseline, rawGet, storedResponse, type RawResponse } from './harness/http.js';
import { NGINX_CACHE_HEADER, startNginx } from './harness/nginx.js';
import { ensureBuild, ensureWrk, settled, type NodeProcess } from './harness/processes.js';
import { profileClock, profileService } from './harness/profile.js';
import { commandLine, measureSection } from './harness/results.js';
import { startService } from './harness/service.js';
import { compare, wrk, type Compared } from './harness/wrk.js';

/** The small answer, where the fixed work of every request weighs most. */
const API_PATH = '/api/news-categories';
/** A browser's request for a page, without Accept-Encoding: every target sends the same HTML bytes. */
const PAGE_HEADERS = { 'User-Agent': CHROME_UA, Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** Issue 48's targets: the service's throughput against the baseline named, at least. */
const TARGETS = [
  { case: 'api', workers: 1, against: 'raw', floor: 0.6, text: 'cached API hit, one worker, ≥ 0.6 × raw node:http' },
  { case: 'api', workers: 2, against: 'nginx', floor: 0.6, text: 'cached API hit, two workers, ≥ 0.6 × nginx with two' },
  { case: 'page', workers: 2, against: 'nginx', floor: 1.0, text: 'warm home page, two workers, ≥ 1.0 × nginx with two' },
] as const;

type Target = 'service1' | 'service2' | 'raw' | 'nginx1' | 'nginx2';
/** `bytes`: the body every target but the two-worker service sends; `bytesTwo`, that service's. */
type Case = { label: string; path: string; bytes: number; bytesTwo: number; results: Record<Target, Compared> };

/** Each figure's ratios, by case and worker count: against raw node:http and against nginx with as many workers. */
function ratios(c: Case, workers: 1 | 2): { raw: Ratio; nginx: Ratio } {
  const service = c.results[workers === 1 ? 'service1' : 'service2'];
  return { raw: ratio(service, c.results.raw), nginx: ratio(service, c.results[workers === 1 ? 'nginx1' : 'nginx2']) };
}

/**
 * Fails unless raw node:http and nginx answer `path` with the one-worker service's body, nginx from
 * its cache, and the two-worker service with a body of about its size (its home page has been
 * seen to name its pictures' versions as 0 where the one-worker service names each original's
 * version: a few hundred bytes less). Returns the two-worker service's size.
 */
async function checkSameBytes(urls: Record<Target, string>, path: string, headers: Record<string, string>, expected: RawResponse) {
  let two = 0;
  for (const [name, url] of Object.entries(urls)) {
    const answer = await rawGet(url + path, headers);
    if (name === 'service2') {
      two = answer.body.length;
      if (Math.abs(two / expected.body.length - 1) > 0.05)
        throw new Error(`service2 answered ${path} with ${two} B, not about ${expected.body.length}`);
    } else if (!answer.body.equals(expected.body)) throw new Error(`${name} answered ${path} with other bytes (${answer.body.length} B)`);
    if (name.startsWith('nginx') && answer.headers[NGINX_CACHE_HEADER] !== 'HIT')
      throw new Error(`${name} did not answer ${path} from its cache: ${String(answer.headers[NGINX_CACHE_HEADER])}`);
  }
  return two;
}

async function benchSideBySide({ rounds = 3, seconds = 4 } = {}) {
  ensureWrk();
  ensureBuild();
  const processes: NodeProcess[] = [];
  try {
    const one = await startService({ env: { WORKERS: '1' } });
    processes.push(one);
    if (!one.embeddedUrl) throw new Error('the service started no embedded content API for the others to read');
    // The same content API for every target: the demo content is made anew by each embedded one.
    const two = await startService({ env: { WORKERS: '2', UPSTREAM_URL: one.embeddedUrl } });
    processes.push(two);
    // The home page rendered first, as in production, and what it set going in the background done.
    for (const s of [one, two]) for (let i = 0; i < 4; i++) await rawGet(s.url + '/', PAGE_HEADERS);
    await settled(one.child.pid);
    await settled(two.child.pid);
    const api = await rawGet(one.url + API_PATH);
    const page = await rawGet(one.url + '/', PAGE_HEADERS);
    const raw = await rawBaseline('side-by-side', { routes: { [API_PATH]: storedResponse(api), '/': storedResponse(page) } });
    processes.push(raw);
    const origins = { '/api/': one.embeddedUrl, '/': raw.url };
    const nginx1 = await startNginx(1, origins);
    processes.push(nginx1);
    const nginx2 = await startNginx(2, origins);
    processes.push(nginx2);
    const urls: Record<Target, string> = { service1: one.url, service2: two.url, raw: raw.url, nginx1: nginx1.url, nginx2: nginx2.url };
    const cases = {
      api: { label: 'cached API hit', path: API_PATH, headers: {}, expected: api },
      page: { label: 'warm home page', path: '/', headers: PAGE_HEADERS, expected: page },
    };
    // Every request of this process before the first wrk run: compare() blocks the event loop, so
    // that a keep-alive connection the server closed meanwhile would still look open afterwards.
    const twoSizes: number[] = [];
    for (const { path, headers, expected } of Object.values(cases)) {
      for (let i = 0; i < 2; i++) for (const url of Object.values(urls)) await rawGet(url + path, headers);
      twoSizes.push(await checkSameBytes(urls, path, headers, expected));
    }
    const measure = ({ label, path, headers, expected }: (typeof cases)['api'], bytesTwo = 0): Case => {
      const targets = Object.fromEntries(Object.entries(urls).map(([k, url]) => [k, url + path])) as Record<Target, string>;
      return { label, path, bytes: expected.body.length, bytesTwo, results: compare(targets, { rounds, seconds, headers }) };
    };
    return report({ api: measure(cases.api, twoSizes[0]), page: measure(cases.page, twoSizes[1]) }, rounds, seconds);
  } finally {
    for (const p of processes.reverse()) await p.stop();
  }
}

const NAMES: Record<Target, string> = {
  service1: 'service, WORKERS=1',
  service2: 'service, WORKERS=2 (default)',
  raw: 'raw node:http, one process',
  nginx1: 'nginx proxy_cache, 1 worker',
  nginx2: 'nginx proxy_cache, 2 workers',
};

function report(cases: Record<'api' | 'page', Case>, rounds: number, seconds: number) {
  const bytes = (n: number) => (n < 10_000 ? `${n} B` : `${fmt(n / 1024)} KB`);
  const size = (c: Case) => bytes(c.bytes) + (c.bytesTwo === c.bytes ? '' : ` (WORKERS=2: ${bytes(c.bytesTwo)})`);
  const cell = (c: Case, workers: 1 | 2) => {
    const r = ratios(c, workers);
    return `${fmtRatio(r.raw)} × raw, ${fmtRatio(r.nginx)} × nginx ${workers === 1 ? '1 worker' : '2 workers'}`;
  };
  const ratioTable = table(
    ['', 'one worker (WORKERS=1)', 'default two workers'],
    Object.values(cases).map((c) => [`${c.label}, ${size(c)}`, cell(c, 1), cell(c, 2)]),
  );
  const figures = table(
    ['case', 'target', 'req/s', 'req/s of each round', 'p50 ms', 'p99 ms', 'errors'],
    Object.values(cases).flatMap((c) =>
      (Object.keys(NAMES) as Target[]).map((t) => {
        const f = c.results[t];
        return [
          c.label,
          NAMES[t],
          fmt(f.rps),
          f.rounds.map((x) => fmt(x)).join(', '),
          fmt(f.p50, 2),
          fmt(f.p99, 2),
          `${f.errors} ${f.socketErrors}`.trim(),
        ];
      }),
    ),
  );
  const judged = TARGETS.map((t) => {
    const r = ratios(cases[t.case], t.workers)[t.against];
    return { ...t, r, verdict: verdict(r, t.floor) };
  });
  const met = judged.every((j) => j.verdict === 'met');
  const markdown = `## Side by side: the service, raw node:http and nginx, the same bytes

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${rounds} rounds of ${seconds} s per target, the five targets in turn in each round, medians; each ratio
is of the medians, with the lowest and highest ratio of one round's pair in brackets (the run-to-run noise).
\`GET ${API_PATH}\` without \`Accept-Encoding\`; \`GET /\` with a desktop Chrome's User-Agent and \`Accept\`, no
\`Accept-Encoding\` (the whole HTML). The service runs from the production build as in production (request log
at \`info\`, metrics, security headers) and has rendered the home page first. The raw server (\`bench/static-server.ts\`)
writes the status, headers and body the service gave. nginx (Debian's nginx-light) caches with proxy_cache,
its access log buffered: in front of the service's content API for the hit (the same body), in front of the raw
server for the page; every target's body is checked to be the service's, and nginx's to come from its cache.

${ratioTable}

${figures}

${table(
  ['target', 'measured', 'met'],
  judged.map((j) => [j.text, fmtRatio(j.r), j.verdict === 'met' ? 'yes' : `**${j.verdict}**`]),
)}
`;
  return { cases, judged, met, markdown };
}

/** Where a small hit's time goes: the service under --cpu-prof while wrk requests it. */
async function profileApiHit(seconds = 4) {
  const summary = await profileService(async (url, pid) => {
    await rawGet(`${url}/`);
    await rawGet(url + API_PATH);
    await settled(pid);
    const from = profileClock();
    wrk(url + API_PATH, { seconds });
    return { from, to: profileClock() };
  });
  return `### Where the time goes (cached API hit, one worker)

The service under \`node --cpu-prof\` while \`wrk -t1 -c50 -d${seconds}s\` requests \`${API_PATH}\`, counting only the
samples taken while wrk ran. Written when a target above is not met. Top self-time functions:

${summary}
`;
}

export const runSideBySide = (options: { rounds?: number; seconds?: number } = {}) =>
  measureSection(
    'side-by-side',
    () => benchSideBySide(options),
    () => profileApiHit(),
  );

if (isMain(import.meta.url)) {
  const { values } = benchArgs({ rounds: { type: 'string' }, seconds: { type: 'string' } });
  const rounds = Number(values.rounds ?? 3);
  const seconds = Number(values.seconds ?? 4);
  if (!(rounds >= 1 && seconds >= 1)) throw new Error('--rounds and --seconds take a whole number of at least 1');
  console.log((await runSideBySide({ rounds, seconds })).markdown);
}
