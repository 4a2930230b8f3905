/**
 * Tracing (docs/decisions/021), end to end: the real service, a real content API on loopback
 * (test-upstream.ts, behind a forwarder that records the headers each call carried), and a real
 * OTLP/HTTP collector on loopback (otlp-receiver.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/settings/config.js';
import { tracesEndpoint } from '../server/observability/tracing.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { later } from './support/wall-clock.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;
const HOME_HEADERS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  accept: 'text/html',
};

/** A content API in front of the test upstream that records the headers of every call it forwards. */
async function recordingUpstream(target: TestUpstream) {
  const calls: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    calls.push({ url: req.url ?? '', headers: req.headers });
    const headers: Record<string, string> = {};
    for (const name of ['if-none-match', 'accept']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    request(target.url + (req.url ?? '/'), { headers }).then(
      async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        const etag = answer.headers.etag;
        res.writeHead(answer.statusCode, { 'content-type': 'application/json', ...(typeof etag === 'string' ? { etag } : {}) }).end(body);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

let upstream: TestUpstream;
let recorder: Awaited<ReturnType<typeof recordingUpstream>>;
let receiver: OtlpReceiver;

beforeAll(async () => {
  upstream = await startTestUpstream();
  recorder = await recordingUpstream(upstream);
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
  await recorder.close();
  await upstream.stop();
});

/** The service with tracing on, sending to the receiver in batches 20 ms apart. */
function tracedService(env: Record<string, string> = {}) {
  return startService({
    UPSTREAM_URL: recorder.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '20',
    ...env,
  });
}

const serverSpanOf = (reqId: string) => (spans: ReceivedSpan[]) =>
  spans.find((s) => s.kind === SERVER && s.attributes['site.request_id'] === reqId);
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);

describe('tracing settings', () => {
  it('is off by default, and follows the standard OTLP endpoint variables', () => {
    expect(tracesEndpoint(loadConfig({}))).toBeUndefined();
    expect(loadConfig({}).OTEL_SERVICE_NAME).toBe('site-bff');
    expect(tracesEndpoint(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toBe('http://collector:4318/v1/traces');
    expect(tracesEndpoint(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp' }))).toBe(
      'http://collector:4318/otlp/v1/traces',
    );
    // The per-signal variable is used as it is, and wins.
    expect(
      tracesEndpoint(
        loadConfig({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:9999/traces',
        }),
      ),
    ).toBe('http://other:9999/traces');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('sends nothing, adds no traceparent upstream and no trace_id to the request lines', async () => {
    const postsBefore = receiver.posts.length;
    const callsBefore = recorder.calls.length;
    const running = await startService({ UPSTREAM_URL: recorder.url });
    try {
      expect((await get(`${running.url}/api/domestic-hospitals`)).status).toBe(200);
      expect((await get(`${running.url}/api/domestic-hospitals`)).status).toBe(200);
      expect((await get(`${running.url}/`, HOME_HEADERS)).status).toBe(200);
    } finally {
      // A service with tracing on would send its last spans now.
      await running.close();
    }
    const calls = recorder.calls.slice(callsBefore);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.headers.traceparent).toBeUndefined();
    const requestLines = running.logs.filter((l) => l.msg === 'request');
    expect(requestLines.length).toBe(3);
    for (const line of requestLines) expect(line).not.toHaveProperty('trace_id');
    expect(running.logs.some((l) => String(l.msg).startsWith('tracing on'))).toBe(false);
    expect(receiver.posts.length).toBe(postsBefore);
  });
});

describe('tracing on', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await tracedService({ OTEL_SERVICE_NAME: 'site-under-test' });
  });
  afterAll(() => running.close());

  it('sends OTLP JSON to <endpoint>/v1/traces with the service name', async () => {
    await get(`${running.url}/api/banner`, { 'x-request-id': 'banner-1' });
    const spans = await receiver.waitFor((s) => serverSpanOf('banner-1')(s) !== undefined);
    expect(receiver.posts.at(-1)).toEqual({ path: '/v1/traces', contentType: 'application/json' });
    expect(serverSpanOf('banner-1')(spans)!.resource['service.name']).toBe('site-under-test');
  });

  it('an API miss: request span, cache lookup (miss), one CLIENT span whose traceparent the upstream saw; the log line carries trace_id', async () => {
    const res = await get(`${running.url}/api/news-categories`, { 'x-request-id': 'miss-1' });
    expect(res.status).toBe(200);
    expect(res.headers['x-cache']).toBe('MISS');
    const spans = await receiver.waitFor((s) => {
      const root = serverSpanOf('miss-1')(s);
      return root !== undefined && s.some((c) => c.kind === CLIENT && c.traceId === root.traceId);
    });
    const root = serverSpanOf('miss-1')(spans)!;
    expect(root.name).toBe('GET /api/news-categories');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/api/news-categories',
      'http.route': '/api/news-categories',
      'http.response.status_code': 200,
      'site.cache': 'MISS',
    });
    const [lookup, ...others] = childrenOf(spans, root);
    expect(others).toEqual([]);
    expect(lookup!.name).toBe('cache lookup');
    expect(lookup!.attributes).toMatchObject({
      'site.cache.key': '/api/news-categories',
      'site.cache.status': 'MISS',
      'site.cache.tier': 'miss',
      'site.cache.fresh': true,
      'site.cache.coalesced': false,
    });
    const [client, ...more] = childrenOf(spans, lookup!);
    expect(more).toEqual([]);
    expect(client).toMatchObject({ name: 'GET', kind: CLIENT });
    expect(client!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${recorder.url}/api/news-categories`,
      'http.response.status_code': 200,
      'site.upstream.conditional': false,
    });
    const call = recorder.calls.findLast((c) => c.url === '/api/news-categories')!;
    expect(call.headers.traceparent).toBe(`00-${root.traceId}-${client!.spanId}-01`);
    // No header of the request is recorded.
    expect(JSON.stringify(spans)).not.toMatch(/authorization|cookie/i);
    const line = running.logs.find((l) => l.msg === 'request' && l.reqId === 'miss-1');
    expect(line?.trace_id).toBe(root.traceId);
  });

  it("a browser's beacon is not traced: its span would keep the visitor's address", async () => {
    const beacon = await fetch(`${running.url}/rum`, {
      method: 'POST',
      body: JSON.stringify({ page: '/', metrics: { LCP: 1000 } }),
      headers: { 'x-request-id': 'beacon-1' },
    });
    expect(beacon.status).toBe(404); // RUM_SAMPLE_RATE is 0 in tests unless asked for: answered all the same
    await get(`${running.url}/api/banner`, { 'x-request-id': 'after-beacon' });
    const spans = await receiver.waitFor((s) => serverSpanOf('after-beacon')(s) !== undefined);
    expect(serverSpanOf('beacon-1')(spans)).toBeUndefined();
  });

  it('an API hit: request span and a cache lookup answered by memory, no upstream span', async () => {
    await get(`${running.url}/api/domestic-hospitals`);
    const res = await get(`${running.url}/api/domestic-hospitals`, {
      'x-request-id': 'hit-1',
      authorization: 'Bearer secret-token',
      cookie: 'a=b',
    });
    expect(res.headers['x-cache']).toBe('HIT');
    const spans = await receiver.waitFor((s) => {
      const root = serverSpanOf('hit-1')(s);
      return root !== undefined && childrenOf(s, root).length > 0;
    });
    const root = serverSpanOf('hit-1')(spans)!;
    expect(root.attributes).toMatchObject({
      'http.route': '/api/domestic-hospitals',
      'site.cache': 'HIT',
      'http.response.status_code': 200,
    });
    const children = childrenOf(spans, root);
    expect(children).toHaveLength(1);
    expect(children[0]!.attributes).toMatchObject({ 'site.cache.status': 'HIT', 'site.cache.tier': 'memory', 'site.cache.fresh': true });
    expect(childrenOf(spans, children[0]!)).toEqual([]);
    expect(JSON.stringify(spans.filter((s) => s.traceId === root.traceId))).not.toMatch(/secret-token|authorization|cookie/i);
  });

  it('a page: request span, render span (route, variant, bytes) with its cache lookups under it; then the page cache answers', async () => {
    const res = await get(`${running.url}/`, { ...HOME_HEADERS, 'x-request-id': 'page-1' });
    expect(res.status).toBe(200);
    const spans = await receiver.waitFor((s) => {
      const root = serverSpanOf('page-1')(s);
      return root !== undefined && s.some((c) => c.name === 'render' && c.parentSpanId === root.spanId);
    });
    const root = serverSpanOf('page-1')(spans)!;
    expect(root.name).toBe('GET page:home');
    expect(root.attributes).toMatchObject({ 'http.route': 'page:home', 'site.page.variant': 'zoom', 'http.response.status_code': 200 });
    const [render, ...others] = childrenOf(spans, root);
    expect(others).toEqual([]);
    expect(render!.name).toBe('render');
    expect(render!.attributes).toMatchObject({ 'site.page.route': 'page:home', 'site.page.variant': 'zoom', 'site.page.cache': 'miss' });
    expect(render!.attributes['site.render.bytes']).toBeGreaterThan(10_000);
    const lookups = childrenOf(spans, render!);
    expect(lookups.length).toBeGreaterThan(2);
    expect(lookups.every((l) => l.name === 'cache lookup')).toBe(true);
    // A cold read calls the content API under its lookup.
    const upstreamCalls = lookups.flatMap((l) => childrenOf(spans, l));
    expect(upstreamCalls.length).toBeGreaterThan(0);
    expect(upstreamCalls.every((c) => c.kind === CLIENT)).toBe(true);

    await get(`${running.url}/`, { ...HOME_HEADERS, 'x-request-id': 'page-2' });
    const again = await receiver.waitFor((s) => {
      const r = serverSpanOf('page-2')(s);
      return r !== undefined && childrenOf(s, r).length > 0;
    });
    const second = serverSpanOf('page-2')(again)!;
    expect(second.attributes).toMatchObject({ 'site.cache': 'HIT', 'site.page.variant': 'zoom' });
    const [cached] = childrenOf(again, second);
    expect(cached!.name).toBe('render');
    expect(cached!.attributes).toMatchObject({ 'site.page.cache': 'hit', 'site.page.route': 'page:home' });
  });

  it('coalesced misses: one upstream span; the requests that waited say so and link to the fetch they waited for', async () => {
    upstream.delayMs = 200;
    try {
      const ids = ['join-1', 'join-2', 'join-3'];
      const answers = await Promise.all(ids.map((id) => get(`${running.url}/api/award-honors`, { 'x-request-id': id })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    } finally {
      upstream.delayMs = 0;
    }
    expect(recorder.calls.filter((c) => c.url === '/api/award-honors')).toHaveLength(1);
    const lookupOf = (s: ReceivedSpan[], id: string) => {
      const root = serverSpanOf(id)(s);
      return root && childrenOf(s, root)[0];
    };
    const spans = await receiver.waitFor((s) => ['join-1', 'join-2', 'join-3'].every((id) => lookupOf(s, id) !== undefined));
    const lookups = ['join-1', 'join-2', 'join-3'].map((id) => lookupOf(spans, id)!);
    const fetching = lookups.filter((l) => l.attributes['site.cache.coalesced'] === false);
    const waiting = lookups.filter((l) => l.attributes['site.cache.coalesced'] === true);
    expect(fetching).toHaveLength(1);
    expect(waiting).toHaveLength(2);
    // The call for the answer, and those for the originals of the images it names (content-reader.ts).
    const children = childrenOf(spans, fetching[0]!);
    expect(children.every((c) => c.kind === CLIENT)).toBe(true);
    expect(children.filter((c) => String(c.attributes['url.full']).endsWith('/api/award-honors'))).toHaveLength(1);
    for (const w of waiting) {
      expect(childrenOf(spans, w)).toEqual([]);
      expect(w.links).toEqual([
        { traceId: fetching[0]!.traceId, spanId: fetching[0]!.spanId, attributes: { 'site.link': 'waited for this fetch' } },
      ]);
    }
    expect(spans.filter((s) => s.kind === CLIENT && String(s.attributes['url.full']).endsWith('/api/award-honors'))).toHaveLength(1);
  });

  it('an upstream failure: CLIENT and lookup spans in error with the error recorded, the request span in error', async () => {
    upstream.mode = 'status-500';
    let res;
    try {
      res = await get(`${running.url}/api/academic-research-categories/18/children`, { 'x-request-id': 'fail-1' });
    } finally {
      upstream.mode = 'ok';
    }
    expect(res.status).toBe(502);
    const spans = await receiver.waitFor((s) => {
      const root = serverSpanOf('fail-1')(s);
      return root !== undefined && s.some((c) => c.kind === CLIENT && c.traceId === root.traceId);
    });
    const root = serverSpanOf('fail-1')(spans)!;
    expect(root.status.code).toBe(ERROR);
    expect(root.attributes['http.response.status_code']).toBe(502);
    const [lookup] = childrenOf(spans, root);
    expect(lookup!.status.code).toBe(ERROR);
    expect(lookup!.events.map((e) => e.name)).toContain('exception');
    expect(lookup!.attributes['error.type']).toBe('status');
    const [client] = childrenOf(spans, lookup!);
    expect(client!.status.code).toBe(ERROR);
    expect(client!.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
  });

  it('a revalidation that the content API answers 304 is a conditional CLIENT span', async () => {
    // Fresh for 200 ms: long enough that the refreshed answer is still fresh when it is sent
    // (with 1 ms, a busy machine could see it expire on the way and call it STALE).
    const short = await tracedService({ CACHE_MAX_AGE_MS: '200', CACHE_STALE_WHILE_REVALIDATE_S: '0' });
    try {
      await get(`${short.url}/api/contact-us`);
      const before = upstream.notModified;
      // Its freshness is over by then: the next request asks with If-None-Match.
      // The answer (fresh for at most 200 ms) goes stale.
      later(250);
      const res = await get(`${short.url}/api/contact-us`, { 'x-request-id': 'revalidate-1' });
      expect(res.headers['x-cache']).toBe('REFRESH');
      expect(upstream.notModified).toBe(before + 1);
      const spans = await receiver.waitFor((s) => {
        const root = serverSpanOf('revalidate-1')(s);
        return root !== undefined && s.some((c) => c.kind === CLIENT && c.traceId === root.traceId);
      });
      const root = serverSpanOf('revalidate-1')(spans)!;
      const [lookup] = childrenOf(spans, root);
      expect(lookup!.attributes).toMatchObject({ 'site.cache.status': 'REFRESH', 'site.cache.tier': 'miss' });
      const [client] = childrenOf(spans, lookup!);
      expect(client!.attributes).toMatchObject({
        'site.upstream.conditional': true,
        'http.response.status_code': 304,
        'site.upstream.not_modified': true,
      });
    } finally {
      await short.close();
    }
  });
});

describe('incoming traceparent', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  const traceparent = `00-${traceId}-${parentId}-01`;

  it('from a trusted proxy, continues the trace', async () => {
    const running = await tracedService({ TRUSTED_PROXIES: '127.0.0.1' });
    try {
      await get(`${running.url}/api/banner`, { traceparent, 'x-request-id': 'trusted-1' });
      const spans = await receiver.waitFor((s) => serverSpanOf('trusted-1')(s) !== undefined);
      const root = serverSpanOf('trusted-1')(spans)!;
      expect(root.traceId).toBe(traceId);
      expect(root.parentSpanId).toBe(parentId);
      expect(running.logs.find((l) => l.reqId === 'trusted-1')?.trace_id).toBe(traceId);
    } finally {
      await running.close();
    }
  });

  it('from anyone else, is ignored: a new trace', async () => {
    const running = await tracedService({ TRUSTED_PROXIES: '10.0.0.0/8' });
    try {
      await get(`${running.url}/api/banner`, { traceparent, 'x-request-id': 'untrusted-1' });
      const spans = await receiver.waitFor((s) => serverSpanOf('untrusted-1')(s) !== undefined);
      const root = serverSpanOf('untrusted-1')(spans)!;
      expect(root.traceId).not.toBe(traceId);
      expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(root.parentSpanId).toBeUndefined();
    } finally {
      await running.close();
    }
  });
});

describe('sampling (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG)', () => {
  it('a ratio of 0 sends no span and no sampled traceparent; a trusted caller that sampled is followed', async () => {
    const running = await tracedService({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const callsBefore = recorder.calls.length;
    try {
      await get(`${running.url}/api/experts/1`, { 'x-request-id': 'unsampled-1' });
      const traceparent = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
      await get(`${running.url}/api/experts/2`, { traceparent, 'x-request-id': 'sampled-by-caller' });
      const spans = await receiver.waitFor((s) => serverSpanOf('sampled-by-caller')(s) !== undefined);
      expect(serverSpanOf('sampled-by-caller')(spans)!.traceId).toBe('ab'.repeat(16));
      // Batches are sent in order: the unsampled request, made first, would be there by now.
      expect(serverSpanOf('unsampled-1')(receiver.spans)).toBeUndefined();
      const [unsampledCall, sampledCall] = recorder.calls.slice(callsBefore).filter((c) => c.url.startsWith('/api/'));
      expect(unsampledCall!.headers.traceparent ?? '-00').toMatch(/-00$/);
      expect(sampledCall!.headers.traceparent).toMatch(new RegExp(`^00-${'ab'.repeat(16)}-[0-9a-f]{16}-01$`));
    } finally {
      await running.close();
    }
  });

  it('refuses a value the SDKs do not know', () => {
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });
});

describe('shutdown', () => {
  it('sends the last spans when the service closes, whatever the batch delay', async () => {
    const running = await tracedService({ OTEL_BSP_SCHEDULE_DELAY: '60000' });
    await get(`${running.url}/api/banner`, { 'x-request-id': 'last-1' });
    expect(serverSpanOf('last-1')(receiver.spans)).toBeUndefined();
    await running.close();
    expect(serverSpanOf('last-1')(receiver.spans)).toBeDefined();
  });
});

describe('a collector that cannot be reached', () => {
  it('changes nothing for visitors, and is logged once', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));

    const env = { PUBLIC_ORIGIN: 'http://site.test' };
    const plain = await startService({ UPSTREAM_URL: recorder.url, ...env });
    const traced = await startService({
      UPSTREAM_URL: recorder.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '300',
      OTEL_BSP_SCHEDULE_DELAY: '20',
      ...env,
    });
    const paths = ['/api/news-categories', '/api/domestic-hospitals', '/'];
    try {
      for (const path of paths) {
        const headers = path === '/' ? { ...HOME_HEADERS, 'accept-encoding': 'identity' } : {};
        const expected = await get(plain.url + path, headers);
        for (let i = 0; i < 3; i++) {
          const answer = await get(traced.url + path, headers);
          expect(answer.status).toBe(200);
          expect(answer.body.equals(expected.body)).toBe(true);
        }
      }
      const failed = () => traced.logs.filter((l) => String(l.msg).startsWith('trace export failed'));
      await expect.poll(() => failed().length, { timeout: 10_000, message: 'the failed export to be logged' }).toBeGreaterThan(0);
      expect(failed()).toHaveLength(1);
      expect(failed()[0]).toMatchObject({ level: 40, endpoint: `http://127.0.0.1:${port}/v1/traces` });
      // More spans, more failed batches (these, and the last ones sent on close): still one line.
      for (let i = 0; i < 5; i++) expect((await get(`${traced.url}/api/domestic-hospitals`)).status).toBe(200);
    } finally {
      await traced.close();
      await plain.close();
    }
    expect(traced.logs.filter((l) => String(l.msg).startsWith('trace export failed'))).toHaveLength(1);
  });
});
