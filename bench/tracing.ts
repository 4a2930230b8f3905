// What tracing costs (docs/decisions/021): the same service with tracing off and on (exporting to
// a loopback OTLP sink that accepts and discards), in alternating rounds of the same run, for a
// cached API hit, a page with a warm cache and a page rendered afresh (page cache off). How "off"
// stands against raw node:http is bench/side-by-side.ts's question.
//
// `npm run bench -- tracing` measures and writes its section of RESULTS.md; the sink is
// bench/otlp-sink.ts.
import { isMain } from './harness/args.js';
import { fmt, fmtRatio, ratio, stamp, table } from './harness/figures.js';
import { BROWSER_HEADERS, PAGES, rawGet } from './harness/http.js';
import { ensureBuild, ensureWrk, startHelper, type Helper } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService, type ServiceProcess } from './harness/service.js';
import { compare, type Compared } from './harness/wrk.js';

const API_PATH = '/api/news-categories';
const ROUNDS = 3;
const SECONDS = 3;

async function sinkCount(sink: Helper): Promise<{ posts: number; bytes: number }> {
  return JSON.parse((await rawGet(`${sink.url}/count`)).body.toString('utf8')) as { posts: number; bytes: number };
}

/** Starts the service (tracing off, or on towards the sink), watching its log for export failures. */
async function start(env: Record<string, string>, sink: Helper | undefined, failures: string[]) {
  const traced: Record<string, string> = sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '1000' } : {};
  return startService({
    env: { ...env, ...traced },
    onLine: (line) => {
      if (line.includes('trace export failed') || line.includes('trace export did not finish')) failures.push(line);
    },
  });
}

const ratioRow = (label: string, r: Record<'on' | 'off', Compared>) => [
  label,
  fmt(r.off.rps),
  fmt(r.on.rps),
  fmtRatio(ratio(r.on, r.off)),
  fmt(r.off.p99, 2),
  fmt(r.on.p99, 2),
  fmt(r.on.p99 / r.off.p99, 2),
];

export async function runTracing() {
  ensureWrk();
  ensureBuild();
  const sink = await startHelper('bench/otlp-sink.ts', [0]);
  const failures: string[] = [];
  const services: ServiceProcess[] = [];
  try {
    const off = await start({}, undefined, failures);
    services.push(off);
    const on = await start({}, sink, failures);
    services.push(on);
    const offFresh = await start({ PAGE_CACHE_MAX_BYTES: '0' }, undefined, failures);
    services.push(offFresh);
    const onFresh = await start({ PAGE_CACHE_MAX_BYTES: '0' }, sink, failures);
    services.push(onFresh);
    for (const s of services) {
      for (let i = 0; i < 3; i++) {
        await rawGet(s.url + PAGES.home, BROWSER_HEADERS);
        await rawGet(s.url + API_PATH);
      }
    }

    const api = compare({ off: off.url + API_PATH, on: on.url + API_PATH }, { rounds: ROUNDS, seconds: SECONDS });
    const before = await sinkCount(sink);
    const page = compare(
      { off: off.url + PAGES.home, on: on.url + PAGES.home },
      { rounds: ROUNDS, seconds: SECONDS, headers: BROWSER_HEADERS },
    );
    const fresh = compare(
      { off: offFresh.url + PAGES.home, on: onFresh.url + PAGES.home },
      { rounds: ROUNDS, seconds: SECONDS, headers: BROWSER_HEADERS },
    );
    // Spans still queued are sent within the second (OTEL_BSP_SCHEDULE_DELAY), and on stop.
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await sinkCount(sink);

    const cases = { api, page, fresh };
    const errors = Object.values(cases).reduce((n, c) => n + c.off.errors + c.on.errors, 0);
    const markdown = `## Tracing off and on

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target, medians. The same production build, one process each:
tracing off (no \`OTEL_EXPORTER_OTLP_ENDPOINT\`: OpenTelemetry is not loaded) and on, exporting every span
(always sampled) over OTLP/HTTP JSON to a loopback sink that accepts and discards (\`bench/otlp-sink.ts\`),
batches at most 1 s apart. \`GET ${API_PATH}\` cached (2 spans a request: the request and its cache lookup), \`GET /\`
with browser headers from the page cache (2 spans) and rendered afresh with \`PAGE_CACHE_MAX_BYTES=0\` and the data
cache warm (request, render and one lookup per read: about 10 spans).

${table(
  ['case', 'off req/s', 'on req/s', 'throughput on/off (rounds)', 'off p99 ms', 'on p99 ms', 'p99 on/off'],
  [ratioRow('cached API hit', api), ratioRow('warm page (page cache)', page), ratioRow('fresh render (page cache off)', fresh)],
)}

The sink took ${after.posts - before.posts} exports (${fmt((after.bytes - before.bytes) / 1024 / 1024, 1)} MiB of JSON) during the page runs;
export failures logged: ${failures.length}; non-2xx answers: ${errors}.
`;
    return { api, page, fresh, failures: failures.length, errors, markdown };
  } finally {
    for (const s of services) await s.stop();
    await sink.stop();
  }
}

if (isMain(import.meta.url)) {
  const result = await runTracing();
  writeSection('tracing', result.markdown);
  console.log(result.markdown);
}
