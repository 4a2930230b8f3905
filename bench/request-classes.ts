// Request classes (`npm run bench -- request-classes`, about eight minutes): what each kind of request
// one client can send costs the service, with the limits as shipped, as a ratio of the cached
// home page measured just before it in the same run; then whether a visitor at another address
// keeps its speed while one address floods the service within its connection cap
// (docs/operations/request-classes.md, docs/decisions/032). Loopback only; every process started
// here is stopped here.
import { writeFileSync } from 'node:fs';
import { request } from 'undici';
import { isMain } from './harness/args.js';
import { fmt, fmtRatio, median, ratio, stamp, table, verdict } from './harness/figures.js';
import { BROWSER_HEADERS, visitor, type Visits } from './harness/http.js';
import { ensureBuild, ensureWrk, tempPath } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';
import { compare, wrk, wrkAsync, type Compared, type WrkFigures } from './harness/wrk.js';

/** Asks for each path once (what a class needs made first), each on a connection of its own. */
async function warm(base: string, paths: string[], headers: Record<string, string> = BROWSER_HEADERS) {
  for (const path of paths) await request(base + path, { headers, reset: true }).then((r) => r.body.dump());
}

/** The limits as shipped (test/support/limits-off.ts turns them off for the other benchmarks). */
const SHIPPED = {
  RATE_LIMIT_MISSES: '60',
  SHED_EVENT_LOOP_LAG_MS: '200',
  MAX_CONNECTIONS_PER_CLIENT: '100',
  RENDERS_PER_CLIENT: '2',
  RUM_SAMPLE_RATE: '1',
};
const CLASS_SECONDS = 3;
const FLOOD_SECONDS = 10;
const FLOOD_CONNECTIONS = 100;
/** Answers counted by status: what each class is answered with. */
const STATUSES = [200, 204, 400, 404, 414, 429, 503];
/** A page view's report, as a browser sends it to POST /rum. */
const BEACON = JSON.stringify({ page: '/', metrics: { LCP: 1200, INP: 40, CLS: 0.01, FCP: 800, TTFB: 90 }, lcpElement: 'banner' });
/** 白内障, as a search box sends it. */
const WORDS = '%E7%99%BD%E5%86%85%E9%9A%9C';

/**
 * Each class: what one client sends (a Lua expression for the path, new each request; GET unless
 * it names a method and a body), and what bounds what it costs. Each class is its own client (X-Forwarded-For through a trusted proxy), so
 * that one class's spent budget does not refuse the next.
 */
interface RequestClass {
  name: string;
  /** A Lua expression, new each request. */
  path: string;
  method?: string;
  body?: string;
  bound: string;
}

const CLASSES: RequestClass[] = [
  { name: 'a cached page, its query junk', path: '"/?utm_source=" .. math.random(1, 1e9)', bound: 'page cache (canonical address)' },
  { name: 'an address that is no route', path: '"/no-such-page-" .. math.random(1, 1e9)', bound: 'the kept not-found page' },
  { name: 'a cached API answer', path: '"/api/banner"', bound: 'proxy cache' },
  { name: 'an API query that is not valid', path: '"/api/news?page=x" .. math.random(1, 1e9)', bound: '400 at once (memo in bytes)' },
  { name: 'an API id nothing holds', path: '"/api/news/" .. math.random(100000, 999999)', bound: 'budget: a call each' },
  { name: 'a page whose parameter names nothing', path: '"/gnyy/detail?id=x" .. math.random(1, 1e9)', bound: 'budget: a render each' },
  { name: 'a page of an id nothing holds', path: '"/zjxz/detail?id=" .. math.random(100000, 999999)', bound: 'budget: a call each' },
  { name: 'a share card drawn before', path: '"/share-card/home.png"', bound: 'share cards in memory' },
  {
    name: 'a share card of an id nothing holds',
    path: '"/share-card/expertDetail/" .. math.random(100000, 999999) .. ".png"',
    bound: 'budget: a call each',
  },
  { name: 'a page of search results, its answer kept', path: `"/search?q=${WORDS}"`, bound: 'budget: a render each' },
  { name: 'a search answer kept', path: `"/api/search?q=${WORDS}"`, bound: "the search's cache of answers" },
  { name: 'a search computed anew', path: '"/api/search?q=x" .. math.random(1, 1e9)', bound: 'budget: a query each' },
  { name: 'a beacon of a page view', path: '"/rum"', method: 'POST', body: BEACON, bound: 'RUM_BEACONS_PER_MINUTE (60)' },
  { name: 'the sitemap', path: '"/sitemap.xml"', bound: 'built at most every 5 min' },
  { name: 'a sitemap part that does not exist', path: '"/sitemap-" .. math.random(2, 9999) .. ".xml"', bound: '404 at once' },
  { name: 'a missing static file', path: '"/assets/x" .. math.random(1, 1e9) .. ".js"', bound: 'a file look-up' },
  { name: 'a target past MAX_URL_BYTES', path: 'LONG', bound: '414 at the front door' },
];

/** A wrk script asking for `path` (a Lua expression) as client `client`, counting the answers by status. */
function classScript(name: string, path: string, client: string, { method = 'GET', body }: { method?: string; body?: string } = {}) {
  const file = tempPath(`class-${name.replace(/\W+/g, '-')}.lua`);
  const sent = body ? { 'Content-Type': 'text/plain;charset=UTF-8', 'Sec-Fetch-Site': 'same-origin' } : {};
  const headers = Object.entries({ ...BROWSER_HEADERS, ...sent, 'X-Forwarded-For': client })
    .map(([k, v]) => `["${k}"] = "${v}"`)
    .join(', ');
  writeFileSync(
    file,
    `math.randomseed(os.time())
local threads = {}
function setup(thread) table.insert(threads, thread) end
LONG = "/?q=" .. string.rep("a", 9000)
${STATUSES.map((s) => `s${s} = 0`).join('\n')}
other = 0
local headers = { ${headers} }
local body = ${body ? JSON.stringify(body) : 'nil'}
request = function() return wrk.format("${method}", ${path}, headers, body) end
response = function(status)
  ${STATUSES.map((s) => `if status == ${s} then s${s} = s${s} + 1 return end`).join('\n  ')}
  other = other + 1
end
done = function()
  for _, t in ipairs(threads) do
    ${STATUSES.map((s) => `io.write("status ${s}: " .. t:get("s${s}") .. "\\n")`).join('\n    ')}
    io.write("status other: " .. t:get("other") .. "\\n")
  end
end
`,
  );
  return file;
}

/** The answers wrk counted by status, as `404 × 12,345; 429 × 12` (most first). */
function statusMix(out: string) {
  const counts = [...out.matchAll(/^status (\w+): (\d+)$/gm)]
    .map(([, s, n]): [string, number] => [s ?? '', Number(n)])
    .filter(([, n]) => n > 0);
  return counts
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${s} × ${n.toLocaleString('en')}`)
    .join('; ');
}

async function measureClasses() {
  const svc = await startService({ env: { ...SHIPPED, TRUSTED_PROXIES: '127.0.0.1' } });
  try {
    // What every cached class needs, made first: the home page, the not-found page, a card, the search's answer, the sitemap.
    await warm(svc.url, ['/', '/no-such-page', '/api/banner', '/share-card/home.png', `/api/search?q=${WORDS}`, '/sitemap.xml'], {
      ...BROWSER_HEADERS,
      'x-forwarded-for': '10.0.0.1',
    });
    const home = classScript('home', '"/"', '10.0.0.1');
    const homeRun = () => wrk(svc.url, { connections: 50, seconds: CLASS_SECONDS, script: home }).rps;
    wrk(svc.url, { connections: 50, seconds: 1, script: home });
    const rows = [];
    // The home page just before and just after each class: the ratio is to their mean.
    let before = homeRun();
    for (const [i, c] of CLASSES.entries()) {
      const run = wrk(svc.url, { connections: 50, seconds: CLASS_SECONDS, script: classScript(c.name, c.path, `10.0.1.${i + 1}`, c) });
      const after = homeRun();
      const homeRps = (before + after) / 2;
      // The noise: the ratio to the home page's run before and to the one after.
      const ratio = { value: run.rps / homeRps, min: run.rps / Math.max(before, after), max: run.rps / Math.min(before, after) };
      rows.push({ ...c, rps: run.rps, p99: run.p99, homeRps, ratio, mix: statusMix(run.out) });
      before = after;
    }
    return rows;
  } finally {
    await svc.stop();
  }
}

/** A wrk script asking for `path` plus a random number each time, from the address wrk connects from. */
function floodScript(name: string, prefix: string) {
  const file = tempPath(`flood-${name}.lua`);
  writeFileSync(
    file,
    `math.randomseed(os.time())
local headers = { ["Accept"] = "text/html", ["Accept-Encoding"] = "gzip, br" }
request = function() return wrk.format("GET", "${prefix}" .. math.random(1, 1e9), headers) end
`,
  );
  return file;
}

/**
 * Rounds of a visitor at 127.0.0.2 reading the cached home page every 20 ms: alone, then while
 * wrk floods from 127.0.0.1 with `script` over FLOOD_CONNECTIONS connections, `rounds` times.
 */
async function floods(env: Record<string, string>, script: string, rounds: number) {
  const svc = await startService({ env: { ...SHIPPED, ...env } });
  try {
    await warm(svc.url, ['/', '/no-such-page']);
    const runs: { alone: Visits; flooded: Visits; attack: WrkFigures }[] = [];
    for (let r = 0; r < rounds; r++) {
      const quiet = visitor(svc.url, ['/'], BROWSER_HEADERS);
      await new Promise((done) => setTimeout(done, FLOOD_SECONDS * 1000));
      const alone = await quiet.stop();
      const guest = visitor(svc.url, ['/'], BROWSER_HEADERS);
      const attack = await wrkAsync(`${svc.url}/`, { connections: FLOOD_CONNECTIONS, seconds: FLOOD_SECONDS, script });
      runs.push({ alone, flooded: await guest.stop(), attack });
    }
    return runs;
  } finally {
    await svc.stop();
  }
}

/** What fair turns cost one client alone: the same service with REQUESTS_PER_TURN as shipped and off, alternating. */
async function turnsCost() {
  const [on, off] = await Promise.all([
    startService({ env: { ...SHIPPED } }),
    startService({ env: { ...SHIPPED, REQUESTS_PER_TURN: '0' } }),
  ]);
  try {
    const result: Record<string, Record<'on' | 'off', Compared>> = {};
    for (const path of ['/api/banner', '/']) {
      for (const svc of [on, off]) await warm(svc.url, [path]);
      result[path] = compare(
        { on: on.url + path, off: off.url + path },
        { connections: 50, seconds: CLASS_SECONDS, headers: BROWSER_HEADERS },
      );
    }
    return result;
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
}

export async function benchRequestClasses() {
  ensureWrk();
  ensureBuild();
  const classes = await measureClasses();
  const unknownScript = floodScript('unknown', '/no-such-page-');
  const renderScript = floodScript('renders', '/gnyy/detail?id=x');
  const turns = await turnsCost();
  const flood = {
    unknown: await floods({}, unknownScript, 5),
    renders: await floods({}, renderScript, 2),
    // Budget off, so that every request of the flood is a render: the lanes alone, then neither.
    lanes: await floods({ RATE_LIMIT_MISSES: '0' }, renderScript, 2),
    noLanes: await floods({ RATE_LIMIT_MISSES: '0', RENDERS_PER_CLIENT: '0' }, renderScript, 2),
  };
  const unknown = classes.find((c) => c.name === 'an address that is no route');
  if (!unknown) throw new Error('the class of unknown addresses was not measured');
  const floodP99 = median(flood.unknown.map((r) => r.flooded.p99));
  const aloneP99 = median(flood.unknown.map((r) => r.alone.p99));
  const unknownVerdict = verdict(unknown.ratio, 0.5);
  const floodP99s = flood.unknown.map((r) => r.flooded.p99);
  const floodVerdict = Math.max(...floodP99s) < 25 ? 'met' : Math.min(...floodP99s) >= 25 ? 'not met' : 'within noise';
  const met = { unknown: unknownVerdict === 'met', flood: floodVerdict === 'met' };

  const classRows = classes.map((c) => [c.name, c.mix, fmt(c.rps), fmt(c.homeRps), fmtRatio(c.ratio), fmt(c.p99, 1), c.bound]);
  const floodRow = (label: string, runs: Awaited<ReturnType<typeof floods>>) =>
    runs.map((r, i) => [
      `${label}, run ${i + 1}`,
      fmt(r.attack.rps),
      `${fmt(r.alone.p50, 1)} / ${fmt(r.alone.p99, 1)}`,
      `${fmt(r.flooded.p50, 1)} / ${fmt(r.flooded.p99, 1)}`,
      `${r.flooded.requests}, ${r.flooded.errors} failed`,
    ]);
  const markdown = `## Request classes: what one client can make the service do

Command: \`${commandLine()}\` (${stamp()}). The machine is shared with other work (2 cores, noisy): compare ratios, not
absolute figures.

**Each class from one client** (\`wrk -t1 -c50 -d${CLASS_SECONDS}s\`, Chrome's headers with \`Accept-Encoding: gzip, br\`), with the
limits as shipped (60 calls or renders per client per 10 s, 2 renders at once per client); each class is its own client
(\`X-Forwarded-For\` through a trusted proxy), and the cached home page is measured just before it, as another client.
What bounds each class: \`docs/operations/request-classes.md\`.

${table(['class', 'answered', 'req/s', 'home req/s', 'ratio to home (to the run before / after)', 'p99 ms', 'bounded by'], classRows)}

**A visitor beside a flood.** A visitor at 127.0.0.2 reads the cached home page every 20 ms, ${FLOOD_SECONDS} s alone, then ${FLOOD_SECONDS} s while
one address (127.0.0.1) floods over ${FLOOD_CONNECTIONS} connections (its cap): unknown addresses (each a new one), or pages whose
parameter names nothing (each a render, then refused once its budget is spent); and the same render flood with the
budget off, with each client's lane (\`RENDERS_PER_CLIENT=2\`) and without (\`0\`). Fair turns (\`REQUESTS_PER_TURN=8\`) in all.

${table(
  ['flood', 'flood req/s', 'visitor alone p50 / p99 ms', 'visitor in the flood p50 / p99 ms', "visitor's requests"],
  [
    ...floodRow('unknown addresses', flood.unknown),
    ...floodRow('renders, limits as shipped', flood.renders),
    ...floodRow('renders, budget off, lanes', flood.lanes),
    ...floodRow('renders, budget off, no lanes', flood.noLanes),
  ],
)}

Unknown addresses from one client: ${fmtRatio(unknown.ratio)} × the cached home page (at least 0.5: ${unknownVerdict === 'met' ? 'met' : `**${unknownVerdict}**`});
the visitor's p99 in the unknown-address flood, median of ${flood.unknown.length} runs: ${fmt(floodP99, 1)} ms, runs ${fmt(Math.min(...floodP99s), 1)}–${fmt(Math.max(...floodP99s), 1)} (under 25 ms in every run: ${met.flood ? 'met' : `**${floodVerdict}**`};
the same visitor alone, median p99 ${fmt(aloneP99, 1)} ms${aloneP99 >= 25 ? ': over 25 ms with no flood at all, so this machine’s own load, not the flood, decides the figure' : ''}).

**What fair turns cost one client alone** (\`REQUESTS_PER_TURN\` 8 as shipped, against 0, two services alternating, \`wrk -c50\`):

${table(
  ['answer', 'req/s, turns', 'req/s, no turns', 'ratio (rounds)', 'p99 ms, turns', 'p99 ms, no turns'],
  Object.entries(turns).map(([path, r]) => [
    path,
    fmt(r.on.rps),
    fmt(r.off.rps),
    fmtRatio(ratio(r.on, r.off)),
    fmt(r.on.p99, 1),
    fmt(r.off.p99, 1),
  ]),
)}
`;
  return { markdown, classes, flood, turns, unknownRatio: unknown.ratio, floodP99, aloneP99, met: met.unknown && met.flood };
}

export async function runRequestClasses() {
  const r = await benchRequestClasses();
  writeSection('request-classes', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runRequestClasses()).markdown);
