/**
 * The circuit breaker, the upstream gate and the cache's windows, constructed directly and driven
 * by vitest's fake timers: every transition at the instant it is due, nothing waited for in real
 * time. And the one composition that leaked: a half-open probe refused a slot by the gate let go.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isContentError } from '../shared/content-api.js';
import { loadConfig } from '../server/config.js';
import { CircuitBreaker, type CircuitState } from '../server/reliability/circuit-breaker.js';
import { UpstreamGate } from '../server/reliability/upstream-gate.js';
import { cacheControl } from '../server/proxy/cached-answer.js';
import { pino } from 'pino';
import { PurgeClock } from '../server/fleet/purge-clock.js';
import { SourcePolicy } from '../server/media/media-address.js';
import { createMetrics } from '../server/observability/metrics.js';
import { apiRequestFor } from '../server/proxy/api-request.js';
import { ContentCache } from '../server/proxy/content-cache.js';
import { ContentReader } from '../server/proxy/content-reader.js';
import { UpstreamClient, UpstreamError } from '../server/upstream/upstream-client.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the circuit breaker', () => {
  it('opens after its threshold of failures, lets one probe through after the cool-down, and closes on its success', () => {
    vi.useFakeTimers();
    const states: CircuitState[] = [];
    const breaker = new CircuitBreaker(3, 1_000, (s) => states.push(s));
    for (let i = 0; i < 2; i++) {
      expect(breaker.allow()).toBe(true);
      breaker.failure();
    }
    expect(breaker.state).toBe('closed');
    expect(breaker.allow()).toBe(true);
    breaker.failure();
    expect(breaker.state).toBe('open');
    expect(breaker.allow()).toBe(false);
    vi.advanceTimersByTime(999);
    expect(breaker.allow()).toBe(false);
    vi.advanceTimersByTime(1);
    // One probe at a time.
    expect(breaker.allow()).toBe(true);
    expect(breaker.state).toBe('half-open');
    expect(breaker.allow()).toBe(false);
    breaker.success();
    expect(breaker.state).toBe('closed');
    expect(states).toEqual(['open', 'half-open', 'closed']);
  });

  it("a failed probe opens it for another cool-down; an abandoned probe frees the next call's turn", () => {
    vi.useFakeTimers();
    const breaker = new CircuitBreaker(1, 500);
    breaker.failure();
    vi.advanceTimersByTime(500);
    expect(breaker.allow()).toBe(true);
    breaker.failure();
    expect(breaker.state).toBe('open');
    vi.advanceTimersByTime(499);
    expect(breaker.allow()).toBe(false);
    vi.advanceTimersByTime(1);
    const probe = breaker.permit();
    expect(probe?.probe).toBe(true);
    expect(breaker.allow()).toBe(false);
    breaker.notMade(probe!);
    expect(breaker.allow()).toBe(true);
  });

  it('a success resets the count of consecutive failures', () => {
    const breaker = new CircuitBreaker(2, 1_000);
    breaker.failure();
    breaker.success();
    breaker.failure();
    expect(breaker.state).toBe('closed');
  });
});

describe('the upstream gate', () => {
  /** A call that ends when told to. */
  const held = () => {
    let end!: () => void;
    const done = new Promise<void>((resolve) => (end = resolve));
    return { call: () => done, end };
  };

  it('runs so many at once, queues so many more, and refuses the rest at once', async () => {
    const refusals: string[] = [];
    const gate = new UpstreamGate(1, 1, 1_000, (why) => refusals.push(why));
    const first = held();
    const running = gate.run(first.call);
    const queued = gate.run(() => Promise.resolve('second'));
    expect([gate.inFlight, gate.queued]).toEqual([1, 1]);
    const refused = await gate.run(() => Promise.resolve('third')).catch((e: unknown) => e);
    expect(isContentError(refused) && refused.code).toBe('busy');
    expect(refusals).toEqual(['queue_full']);
    first.end();
    await running;
    // The slot passed straight to the one in line.
    expect(await queued).toBe('second');
    expect([gate.inFlight, gate.queued]).toEqual([0, 0]);
  });

  it('refuses a call that waited its whole budget, and forgets it', async () => {
    vi.useFakeTimers();
    const refusals: string[] = [];
    const gate = new UpstreamGate(1, 4, 1_000, (why) => refusals.push(why));
    const first = held();
    const running = gate.run(first.call);
    const waiting = gate.run(() => Promise.resolve('late')).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(gate.queued).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const refused = await waiting;
    expect(isContentError(refused) && refused.retryAfterS).toBe(1);
    expect(refusals).toEqual(['waited_too_long']);
    expect(gate.queued).toBe(0);
    first.end();
    await running;
    expect(gate.inFlight).toBe(0);
  });
});

describe("the cache's windows, as others are told them", () => {
  const windows = { CACHE_STALE_WHILE_REVALIDATE_S: 30, CACHE_STALE_IF_ERROR_S: 86_400 };
  it('an answer: fresh for an edge, always revalidated by a browser, stale windows named', () => {
    expect(cacheControl(200, 60, windows)).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=30, stale-if-error=86400');
    expect(cacheControl(200, 0, windows)).toContain('s-maxage=0');
  });
  it('a not-found answer: no stale windows, so it is never served past its short freshness', () => {
    expect(cacheControl(404, 30, windows)).toBe('public, max-age=0, s-maxage=30');
  });
});

describe('a half-open probe refused a slot by the gate', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('is let go, so the next call is the probe instead of finding the circuit shut', async () => {
    // A content API whose answers wait until the test sends them.
    const pending: ServerResponse[] = [];
    server = createServer((_req, res) => pending.push(res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((resolve) => setImmediate(resolve));
    };
    const config = loadConfig({});
    const client = new UpstreamClient({
      ...config,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      UPSTREAM_CONNECTIONS: 1,
      UPSTREAM_QUEUE: 0,
      UPSTREAM_TIMEOUT_MS: 60_000,
      UPSTREAM_BREAKER_THRESHOLD: 1,
      UPSTREAM_BREAKER_COOLDOWN_MS: 1_000,
    });
    // Only Date is faked: the breaker's clock moves when told, the sockets run as they do.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // A call fails: the circuit opens.
      const failing = client.get('/api/a');
      await until(() => pending.length === 1);
      pending[0]!.writeHead(500).end();
      expect((await failing).status).toBe(500);
      expect(client.circuit).toBe('open');
      // The one slot is taken (by work that did not go through the circuit) when the cool-down ends.
      let release!: () => void;
      const holding = client.gate.run(() => new Promise<void>((resolve) => (release = resolve)));
      vi.setSystemTime(Date.now() + 1_000);
      // The probe finds no slot: refused as busy, and the content API never asked.
      const probe = await client.get('/api/b').catch((e: unknown) => e);
      expect(isContentError(probe) && probe.code).toBe('busy');
      expect(probe instanceof UpstreamError).toBe(false);
      // The next call is the probe now: busy too, not shut out by a probe that was never made.
      const next = await client.get('/api/c').catch((e: unknown) => e);
      expect(isContentError(next) && next.code).toBe('busy');
      release();
      await holding;
      // With a slot free, the probe goes out, succeeds, and closes the circuit.
      const recovering = client.get('/api/d');
      await until(() => pending.length === 2);
      pending[1]!.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      expect((await recovering).status).toBe(200);
      expect(client.circuit).toBe('closed');
    } finally {
      vi.useRealTimers();
      await client.close();
    }
  });
});

describe("the cache's windows, in time", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('fresh, then stale while one refresh runs, then stale only if the content API fails, then gone', async () => {
    let failing = false;
    let calls = 0;
    server = createServer((_req, res) => {
      calls++;
      if (failing) res.writeHead(500).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 1, name: '集团新闻' }] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({
      CACHE_MAX_AGE_MS: '10000',
      CACHE_STALE_WHILE_REVALIDATE_S: '20',
      CACHE_STALE_IF_ERROR_S: '100',
      UPSTREAM_BREAKER_THRESHOLD: '1000',
    });
    const metrics = createMetrics({ defaultMetrics: false });
    const log = pino({ level: 'silent' });
    const cache = new ContentCache({
      upstream: new UpstreamClient({ ...config, url }),
      reader: new ContentReader({ policy: new SourcePolicy(url), describe: () => Promise.resolve(undefined), metrics, log }),
      config,
      metrics,
      log,
      purges: new PurgeClock(),
    });
    const request = apiRequestFor('newsCategories');
    // Only Date is faked: freshness is read from the clock; the calls run as they do.
    vi.useFakeTimers({ toFake: ['Date'] });
    const get = () => cache.get(request).then((r) => r.status);
    expect(await get()).toBe('MISS');
    vi.setSystemTime(Date.now() + 8_999);
    expect(await get()).toBe('HIT');
    // Past its freshness (10 s, shortened by up to a tenth at random): served stale while one refresh runs.
    vi.setSystemTime(Date.now() + 1_002);
    expect(await get()).toBe('STALE');
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(await get()).toBe('HIT');
    // Past the stale-while-revalidate window, with the content API failing: the last good answer.
    failing = true;
    vi.setSystemTime(Date.now() + 10_000 + 20_000 + 1);
    expect(await get()).toBe('STALE');
    // Past the stale-if-error window too: nothing to serve.
    vi.setSystemTime(Date.now() + 100_000 + 1);
    await expect(get()).rejects.toMatchObject({ status: 502 });
  });
});
