// What tracing costs (docs/decisions/021): the same service with tracing off and on (exporting to
// a loopback OTLP sink that accepts and discards), in alternating rounds of the same run, for a
// cached API hit, a page with a warm cache and a page rendered afresh (page cache off). The
// cached hit with tracing off also sits beside raw node:http sending the same bytes, the
// api-hit section's baseline, so that "off" can be read against that section's ratio.
//
// `node bench/tracing.js` measures and writes its section of RESULTS.md;
// `node bench/tracing.js sink [port]` is the sink alone (prints `ready <port>`).
import { createServer } from 'node:http';
import {
  BROWSER_HEADERS,
  commandLine,
  compare,
  ensureBuild,
  ensureWrk,
  fmt,
  isMain,
  PAGES,
  rawBaseline,
  rawGet,
  stamp,
  startHelper,
  startService,
  table,
  writeSection,
} from './lib.js';

const API_PATH = '/api/news-categories';
const ROUNDS = 3;
const SECONDS = 3;

/** The collector stand-in: takes every POST, counts it and its bytes, answers 200; GET /count says how many. */
function runSink(port) {
  let posts = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/count') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ posts, bytes }));
      return;
    }
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${server.address().port}`));
}

async function sinkCount(sink) {
  return JSON.parse((await rawGet(`${sink.url}/count`)).body.toString('utf8'));
}

/** Starts the service (tracing off, or on towards the sink), watching its log for export failures. */
async function start(env, sink, failures) {
  const traced = sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '1000' } : {};
  return startService({
    env: { ...env, ...traced },
    onLine: (line) => {
      if (line.includes('trace export failed') || line.includes('trace export did not finish')) failures.push(line);
    },
  });
}

const ratioRow = (label, r) => [
  label,
  fmt(r.off.rps),
  fmt(r.on.rps),
  fmt(r.on.rps / r.off.rps, 2),
  fmt(r.off.p99, 2),
  fmt(r.on.p99, 2),
  fmt(r.on.p99 / r.off.p99, 2),
];

export async function runTracing() {
  ensureWrk();
  ensureBuild();
  const sink = await startHelper('bench/tracing.js', ['sink', 0]);
  const failures = [];
  const services = [];
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

    // The api-hit section's baseline: raw node:http writing the same bytes.
    const answer = await rawGet(off.url + API_PATH, { 'accept-encoding': 'identity' });
    const raw = await rawBaseline('tracing-api', { answer });
    let api;
    try {
      api = compare({ off: off.url + API_PATH, on: on.url + API_PATH, raw: `${raw.url}${API_PATH}` }, { rounds: ROUNDS, seconds: SECONDS });
    } finally {
      await raw.stop();
    }
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
(always sampled) over OTLP/HTTP JSON to a loopback sink that accepts and discards (\`node bench/tracing.js sink\`),
batches at most 1 s apart. \`GET ${API_PATH}\` cached (2 spans a request: the request and its cache lookup), \`GET /\`
with browser headers from the page cache (2 spans) and rendered afresh with \`PAGE_CACHE_MAX_BYTES=0\` and the data
cache warm (request, render and one lookup per read: about 10 spans).

${table(
  ['case', 'off req/s', 'on req/s', 'throughput on/off', 'off p99 ms', 'on p99 ms', 'p99 on/off'],
  [ratioRow('cached API hit', api), ratioRow('warm page (page cache)', page), ratioRow('fresh render (page cache off)', fresh)],
)}

Tracing off against raw \`node:http\` sending the same bytes (the api-hit section's baseline, same run):
${fmt(api.off.rps / api.raw.rps, 2)} × the throughput, p99 ${fmt(api.off.p99 / api.raw.p99, 2)} ×; with tracing on ${fmt(api.on.rps / api.raw.rps, 2)} ×.
The sink took ${after.posts - before.posts} exports (${fmt((after.bytes - before.bytes) / 1024 / 1024, 1)} MiB of JSON) during the page runs;
export failures logged: ${failures.length}; non-2xx answers: ${errors}.
`;
    return { api, page, fresh, failures: failures.length, errors, markdown };
  } finally {
    for (const s of services) await s.stop();
    await sink.stop();
  }
}

if (process.argv[2] === 'sink') runSink(process.argv[3] ?? 0);
else if (isMain(import.meta.url)) {
  const result = await runTracing();
  writeSection('tracing', result.markdown);
  console.log(result.markdown);
}
