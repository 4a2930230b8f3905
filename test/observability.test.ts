/**
 * The request line and the request metrics are the libraries' own (docs/decisions/027): the line
 * is the one pino writes for its fields, and the series are the ones prom-client's Counter and
 * Histogram write for the same observations, whatever changes in how the service calls them.
 */
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../server/observability/metrics.js';
import { createRequestObserver, observe } from '../server/observability/request-observer.js';
import { SiteResponse } from '../server/observability/response-context.js';
import { rawRequest } from './support/raw-http.js';

const BASE = { service: 'site-bff' };

function collector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

/** What pino itself writes for the fields of `line` (its time and its level kept). */
function pinoLine(line: string): string {
  const { level, time, service: _service, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
  const { lines, stream } = collector();
  const log = pino({ base: BASE, timestamp: () => `,"time":${String(time)}` }, stream);
  const method = ({ 30: 'info', 40: 'warn', 50: 'error' } as const)[level as 30 | 40 | 50];
  log[method](fields, msg as string);
  return lines[0]!;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A node:http server that answers as a handler of the service would, observed as the service observes. */
async function observedServer(answer: (res: import('node:http').ServerResponse) => void) {
  const { lines, stream } = collector();
  const log = pino({ base: BASE }, stream);
  const observeRequest = createRequestObserver(log, createMetrics({ defaultMetrics: false }));
  server = createServer({ ServerResponse: SiteResponse }, (req, res) => {
    observeRequest(req, res);
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines };
}

describe('the request log line', () => {
  it.each([
    ['a cached hit', '/api/banner', 200, { route: '/api/banner', cache: 'HIT' }],
    ['a miss with upstream time', '/api/news?page=2', 200, { route: '/api/news', cache: 'MISS', upstreamMs: 12 }],
    ['a client error', '/api/news/abc', 400, { route: 'api' }],
    ['a server error', '/', 503, { route: 'page:home', cache: 'MISS' }],
    ['a target with quotes, backslashes and braces', '/api/banner?x="\\{}|^`', 400, { route: 'api' }],
    ['a long target', `/news/index?q=${'a'.repeat(600)}`, 200, { route: 'page:news' }],
  ] as const)('is the line pino writes for the same fields: %s', async (_what, target, status, facts) => {
    const { url, lines } = await observedServer((res) => {
      observe(res, facts);
      res.writeHead(status).end('x');
    });
    await rawRequest(url, target, { headers: [['x-request-id', 'req-1']] });
    await expect.poll(() => lines.length, { timeout: 5_000, message: 'a line from the service' }).toBeGreaterThan(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(pinoLine(lines[0]!));
  });

  it('is the line pino writes for a visitor who left before the answer', async () => {
    const { url, lines } = await observedServer((res) => observe(res, { route: '/api/news', cache: 'MISS' }));
    await rawRequest(url, '/api/news', { timeoutMs: 50 }).catch(() => undefined);
    await expect.poll(() => lines.length, { timeout: 5_000, message: 'a line from the service' }).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!)).toMatchObject({ status: 'aborted', msg: 'request aborted' });
    expect(lines[0]).toBe(pinoLine(lines[0]!));
  });

  it('refuses a response that is not a SiteResponse rather than patch fields onto it', () => {
    const observeRequest = createRequestObserver(pino({ base: BASE }, collector().stream), createMetrics({ defaultMetrics: false }));
    const req = Object.assign(new IncomingMessage(new Socket()), { method: 'GET', url: '/api/banner' });
    const plain = new ServerResponse(req);
    expect(() => observeRequest(req, plain)).toThrow(/not a SiteResponse/);
    expect(Object.hasOwn(plain, 'record')).toBe(false);
    const site = new SiteResponse(req);
    observeRequest(req, site);
    expect(site.record).toMatchObject({ method: 'GET', url: '/api/banner' });
  });
});

describe('the request metrics', () => {
  const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
  const OBSERVED: [string, number][] = [
    ['/api/banner', 0.0003],
    ['/api/banner', 0.0007],
    ['/api/banner', 0.004],
    ['page:home', 0.02],
    ['page:home', 7],
    ['/api/banner', 0.001],
  ];

  it("write the histogram's series exactly as prom-client's Histogram does", async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route.',
      labelNames: ['route'],
      buckets: BUCKETS,
      registers: [reference],
    });
    for (const [route, seconds] of OBSERVED) {
      metrics.requestDuration(route).observe(seconds);
      histogram.observe({ route }, seconds);
    }
    expect(await metrics.registry.getSingleMetricAsString('http_request_duration_seconds')).toBe(
      await reference.getSingleMetricAsString('http_request_duration_seconds'),
    );
  });

  it("write the counters' series exactly as prom-client's Counter does, across scrapes", async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const reference = new Registry();
    const counter = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route (an API path template, a page route or a class) and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [reference],
    });
    const count = (route: string, status: string) => {
      metrics.requests(route, 'GET', status).inc();
      counter.inc({ route, method: 'GET', status });
    };
    count('/api/banner', '200');
    count('/api/banner', '200');
    count('page:home', '503');
    const scrape = async () => [
      await metrics.registry.getSingleMetricAsString('http_requests_total'),
      await reference.getSingleMetricAsString('http_requests_total'),
    ];
    let [ours, theirs] = await scrape();
    expect(ours).toBe(theirs);
    count('/api/banner', '200');
    count('/api/news', 'aborted');
    [ours, theirs] = await scrape();
    expect(ours).toBe(theirs);
  });
});
