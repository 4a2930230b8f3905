// What the request observer costs per request through the libraries' public APIs, against the
// bypass they replaced (decisions 012 and 027), measured side by side in one process: the request
// line through `log.info(fields, msg)` against the same line composed by hand and written to the
// same stream, and the request counter and histogram through prom-client's `labels()` against
// plain tallies. Both write to a stream that discards, so that only the work of each path counts.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { commandLine, writeSection } from './harness/results.js';

const ROUNDS = 5;
const CALLS = 200_000;
const ROUTES = ['/api/news', '/api/banner', '/api/news-categories', 'page:home', 'page:news', 'static'];
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const BASE = { service: 'site-bff', pid: process.pid, hostname: 'bench' };

const route = (i: number) => ROUTES[i % ROUTES.length] ?? '';

/** One request's facts, as the observer has them at 'close'. */
const facts = (i: number) => ({
  method: 'GET',
  url: `${route(i)}?page=${i % 7}`,
  status: 200,
  responseTime: 0.4,
  reqId: '0f6c8a4e-2b55-4d7e-9c1a-7a3f5e2d1b90',
  route: route(i),
  cache: 'HIT',
});

function publicLine() {
  const log = pino({ base: BASE }, discard());
  return (i: number) => log.info(facts(i), 'request');
}

/** The bypass: the line composed as a string and written to the logger's stream (decision 007). */
function handLine() {
  const stream = discard();
  const bindings = `,"service":"site-bff","pid":${process.pid},"hostname":"bench"`;
  return (i: number) => {
    const r = facts(i);
    stream.write(
      `{"level":30,"time":${Date.now()}${bindings},"method":"${r.method}","url":${JSON.stringify(r.url)},"status":${r.status}` +
        `,"responseTime":${r.responseTime},"reqId":"${r.reqId}","route":${JSON.stringify(r.route)},"cache":${JSON.stringify(r.cache)},"msg":"request"}\n`,
    );
  };
}

function publicMetrics() {
  const registers = [new Registry()];
  const requests = new Counter({ name: 'r', help: 'r', labelNames: ['route', 'method', 'status'], registers });
  const duration = new Histogram({ name: 'd', help: 'd', labelNames: ['route'], buckets: BUCKETS, registers });
  // Each combination's child is asked for once and kept, as server/observability/metrics.ts does.
  const counters = new Map<string, ReturnType<typeof requests.labels>>();
  const histograms = new Map<string, ReturnType<typeof duration.labels>>();
  return (i: number) => {
    const path = route(i);
    const key = `${path}\u0000GET\u0000200`;
    (counters.get(key) ?? counters.set(key, requests.labels(path, 'GET', '200')).get(key))?.inc();
    (histograms.get(path) ?? histograms.set(path, duration.labels(path)).get(path))?.observe(0.0004);
  };
}

/** The bypass: tallies in a Map, handed to prom-client only when /metrics is read. */
function tallies() {
  const counts = new Map<string, { n: number }>();
  const histograms = new Map<string, { counts: Float64Array; sum: number; count: number }>();
  return (i: number) => {
    const path = route(i);
    const key = `${path}\u0000GET\u0000200`;
    const t = counts.get(key) ?? { n: 0 };
    if (t.n === 0) counts.set(key, t);
    t.n++;
    let h = histograms.get(path);
    if (!h) histograms.set(path, (h = { counts: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 }));
    let b = 0;
    while (b < BUCKETS.length && 0.0004 > BUCKETS[b]!) b++;
    h.counts[b]!++;
    h.sum += 0.0004;
    h.count++;
  };
}

/** Makes one path's function, called once per request. */
type Make = () => (i: number) => void;

/** Nanoseconds per call, the median of ROUNDS, the two paths alternating. */
function measure(pairs: [[string, Make], [string, Make]]): [number, number] {
  const samples = pairs.map((): number[] => []);
  const made = pairs.map(([, make]) => make());
  for (const run of made) for (let i = 0; i < CALLS / 10; i++) run(i); // warm up
  for (let round = 0; round < ROUNDS; round++) {
    made.forEach((run, k) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) run(i);
      samples[k]!.push(Number(process.hrtime.bigint() - started) / CALLS);
    });
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)] ?? NaN) as [number, number];
}

export function benchObserverCost() {
  const [line, hand] = measure([
    ['public', publicLine],
    ['hand', handLine],
  ]);
  const [metrics, tally] = measure([
    ['public', publicMetrics],
    ['tally', tallies],
  ]);
  const us = (ns: number) => fmt(ns / 1000, 2);
  const rows = [
    ['request line: `log.info(fields, msg)` vs composed by hand', us(line), us(hand), fmt(line / hand, 2), us(line - hand)],
    [
      'request metrics: prom-client children (kept) `inc()`/`observe()` vs tallies',
      us(metrics),
      us(tally),
      fmt(metrics / tally, 2),
      us(metrics - tally),
    ],
    ['both', us(line + metrics), us(hand + tally), fmt((line + metrics) / (hand + tally), 2), us(line + metrics - hand - tally)],
  ];
  const markdown = `## The request observer: public APIs vs the bypass

Command: \`${commandLine()}\` (${stamp()}).
${ROUNDS} alternating rounds of ${CALLS.toLocaleString('en')} calls per path in one process, medians; each line is written
to a stream that discards it. What one request pays for its log line and its two metrics through
pino's and prom-client's public APIs, against the hand-written line and the tallies they replaced
(docs/decisions/027).

${table(['per request', 'public API µs', 'bypass µs', 'ratio', 'added µs'], rows)}
`;
  return { line, hand, metrics, tally, markdown };
}

if (isMain(import.meta.url)) {
  const result = benchObserverCost();
  writeSection('observer-cost', result.markdown);
  console.log(result.markdown);
}
