// Abuse and overload (`npm run bench -- abuse`, about 70 s): what one flooding client costs, with the
// service's limits and without them. Two floods, each run twice (limits on, limits off), each
// with an ordinary visitor asking at the same time from another loopback address:
// - random ids: `wrk -c100` for /api/news/<random id> against a content API that answers after
//   50 ms and counts its calls; the visitor reads cached and uncached pages and answers;
// - renders: `wrk -c100` for detail pages of random ids (each a full render), limits off so that
//   only shedding differs; the visitor reads a cached page.
// Loopback only; every process started here is stopped here.
import { writeFileSync } from 'node:fs';
import { request } from 'undici';
import { isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { visitor, type Visits } from './harness/http.js';
import { ensureBuild, ensureWrk, tempPath } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { countingUpstream, startService } from './harness/service.js';
import { wrkAsync, type WrkFigures } from './harness/wrk.js';

const SECONDS = 10;
const CONNECTIONS = 100;
const UPSTREAM_DELAY_MS = 50;

/**
 * A wrk script asking for `prefix` plus a random id each time, and counting the answers by
 * status class it cares about: it prints `429: n` and `503: n` when done.
 */
function randomIdScript(prefix: string): string {
  const file = tempPath(`abuse-${prefix.replace(/\W+/g, '-')}.lua`);
  writeFileSync(
    file,
    `math.randomseed(os.time())
local threads = {}
function setup(thread) table.insert(threads, thread) end
limited = 0
shed = 0
request = function()
  return wrk.format("GET", "${prefix}" .. math.random(100000, 999999), { ["Accept"] = "text/html" })
end
response = function(status)
  if status == 429 then limited = limited + 1 end
  if status == 503 then shed = shed + 1 end
end
done = function()
  local l, s = 0, 0
  for _, t in ipairs(threads) do l = l + t:get("limited"); s = s + t:get("shed") end
  io.write("429: " .. l .. "\\n503: " .. s .. "\\n")
end
`,
  );
  return file;
}

/** The 429s and 503s the script above counted. */
const refusals = (attack: WrkFigures) => ({
  limited: Number(/^429: (\d+)$/m.exec(attack.out)?.[1] ?? NaN),
  shed: Number(/^503: (\d+)$/m.exec(attack.out)?.[1] ?? NaN),
});

const describeFailures = (failures: Visits['failures']) =>
  failures.size ? [...failures].map(([k, n]) => `${n}× ${k}`).join(', ') : 'none';

async function randomIdFlood(limits: boolean) {
  const source = await startService();
  const upstream = await countingUpstream(source.embeddedUrl ?? '', UPSTREAM_DELAY_MS);
  const svc = await startService({
    env: {
      UPSTREAM_URL: upstream.url,
      ...(limits ? { RATE_LIMIT_MISSES: '60', RATE_LIMIT_WINDOW_S: '10', MAX_CONNECTIONS_PER_CLIENT: '100' } : {}),
    },
  });
  try {
    // Cached before the flood: the home page and its data.
    await request(`${svc.url}/`, { headers: { accept: 'text/html' } }).then((r) => r.body.dump());
    const guest = visitor(svc.url, ['/', '/zjxz/index', '/api/banner', '/zjxz/detail?id=2', '/xsyj/xsyj', '/api/experts/3', '/lxwm/index']);
    upstream.calls.clear();
    const attack = await wrkAsync(`${svc.url}/api/news/`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      script: randomIdScript('/api/news/'),
    });
    const visits = await guest.stop();
    const itemCalls = [...upstream.calls].filter(([url]) => /^\/api\/news\/\d+$/.test(url)).reduce((n, [, c]) => n + c, 0);
    return { attack, visits, upstreamPerSecond: itemCalls / SECONDS };
  } finally {
    await svc.stop();
    await upstream.stop();
    await source.stop();
  }
}

/** A gauge from /metrics, or NaN. */
async function gauge(base: string, name: string): Promise<number> {
  const res = await request(`${base}/metrics`);
  const text = await res.body.text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** `thresholdMs`: SHED_EVENT_LOOP_LAG_MS, 0 for no shedding. */
async function renderFlood(thresholdMs: number) {
  const svc = await startService({ env: { SHED_EVENT_LOOP_LAG_MS: String(thresholdMs) } });
  try {
    await request(`${svc.url}/zjxz/index`, { headers: { accept: 'text/html' } }).then((r) => r.body.dump());
    // The lag histogram starts afresh at each scrape: this one empties it before the flood.
    await gauge(svc.url, 'nodejs_eventloop_lag_p99_seconds');
    const guest = visitor(svc.url, ['/zjxz/index']);
    const attack = await wrkAsync(`${svc.url}/gnyy/detail?id=`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      script: randomIdScript('/gnyy/detail?id='),
    });
    const visits = await guest.stop();
    const lagP99 = (await gauge(svc.url, 'nodejs_eventloop_lag_p99_seconds')) * 1000;
    return { attack, visits, lagP99 };
  } finally {
    await svc.stop();
  }
}

export async function benchAbuse() {
  ensureWrk();
  ensureBuild();
  const ids = { on: await randomIdFlood(true), off: await randomIdFlood(false) };
  const renders = { default: await renderFlood(200), low: await renderFlood(50), off: await renderFlood(0) };
  const idRow = (label: string, r: Awaited<ReturnType<typeof randomIdFlood>>) => [
    label,
    fmt(r.upstreamPerSecond, 1),
    fmt(r.attack.rps),
    `${refusals(r.attack).limited} / ${refusals(r.attack).shed}`,
    `${r.visits.requests}, ${r.visits.errors} failed (${describeFailures(r.visits.failures)})`,
    fmt(r.visits.p99, 1),
  ];
  const renderRow = (label: string, r: Awaited<ReturnType<typeof renderFlood>>) => [
    label,
    fmt(r.lagP99),
    fmt(r.attack.rps),
    String(refusals(r.attack).shed),
    `${r.visits.requests}, ${r.visits.errors} failed (${describeFailures(r.visits.failures)})`,
    fmt(r.visits.p50, 1),
    fmt(r.visits.p99, 1),
  ];
  const renderTable = table(
    [
      'shedding',
      'event-loop lag p99 ms',
      'attacker req/s',
      "attacker's 503s",
      "visitor's requests (failed)",
      'visitor p50 ms',
      'visitor p99 ms',
    ],
    [renderRow('at 200 ms lag (the default)', renders.default), renderRow('at 50 ms lag', renders.low), renderRow('off', renders.off)],
  );
  const markdown = `## Abuse and overload: one client flooding

Command: \`${commandLine()}\` (${stamp()}).

**Random ids.** \`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s\`, each request \`/api/news/<random id>\` (every one a miss),
against a content API that answers after ${UPSTREAM_DELAY_MS} ms and counts its calls. Meanwhile an ordinary visitor at
another address reads cached and uncached pages and answers in turn, one every 20 ms. Limits on: the defaults
(60 misses per client per 10 s, 100 connections per client); off: \`RATE_LIMIT_MISSES=0\`. Upstream pressure is
bounded in both (32 calls at once, 256 waiting).

${table(['limits', 'upstream calls/s caused', 'attacker req/s', "attacker's 429 / 503", "visitor's requests (failed)", 'visitor p99 ms'], [idRow('on', ids.on), idRow('off', ids.off)])}

**Renders.** \`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s\`, each request a detail page of a random id (a full render of
the not-found page, never cached, so every answer is a 404 unless shed), while the visitor reads a cached page every
20 ms. Shedding at the default threshold (\`SHED_EVENT_LOOP_LAG_MS=200\`), at a low one (50), and off (0); the
per-client limit is off in all three, so that only shedding differs. The lag is prom-client's p99 over the flood.

${renderTable}

Reading the two tables: the per-client budget is what keeps one client's misses off the content API; shedding is
for a process that is late for any reason (many clients, a slow machine), and at its default threshold a render
flood from one client on this machine does not make the loop late enough to trigger it. A low threshold sheds
sooner, but the refused requests come back at once, so the visitor gains nothing here; hence 200 ms.
`;
  return { markdown, ids, renders };
}

export async function runAbuse() {
  const r = await benchAbuse();
  writeSection('abuse', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runAbuse()).markdown);
