/**
 * The content cache's windows (docs/decisions/002 and 018) on a fake clock: fresh, then served
 * stale at once while one refresh runs (stale-while-revalidate), then waited for with the last
 * good answer standing in when the content API fails (stale-if-error), then gone; and an answer
 * a purge marked stale. Then one call per key among processes that share a tier (decision 022).
 * The cache is built directly over a real upstream client and a test content API on loopback;
 * only Date is faked (the cache's windows are read from it), so that sockets and the client's own
 * timers run as they do in the service.
 */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isContentError } from '../shared/content-api.js';
import { loadConfig } from '../server/settings/config.js';
import { MemoryTier } from '../server/fleet/memory-tier.js';
import { PurgeGeneration } from '../server/fleet/purge-generation.js';
import type { SharedTier } from '../server/fleet/shared-tier.js';
import { SourcePolicy } from '../server/media/media-address.js';
import { createMetrics } from '../server/observability/metrics.js';
import { apiRequestFor } from '../server/proxy/api-request.js';
import { cacheControl } from '../server/proxy/cached-answer.js';
import { ContentCache } from '../server/proxy/content-cache.js';
import { ContentReader } from '../server/proxy/content-reader.js';
import { UpstreamClient } from '../server/upstream/upstream-client.js';
import { deferred } from './support/deferred.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const MAX_AGE_MS = 10_000;
/** Freshness is shortened at random by up to a tenth: fresh for sure before this. */
const SURELY_FRESH_MS = MAX_AGE_MS * 0.9 - 1;
const SWR_S = 5;
const SIE_S = 60;
const NOT_FOUND_S = 3;

const config = loadConfig({
  CACHE_MAX_AGE_MS: String(MAX_AGE_MS),
  CACHE_STALE_WHILE_REVALIDATE_S: String(SWR_S),
  CACHE_STALE_IF_ERROR_S: String(SIE_S),
  CACHE_NOT_FOUND_TTL_S: String(NOT_FOUND_S),
  UPSTREAM_BREAKER_THRESHOLD: '1000',
});

let upstream: TestUpstream;
let client: UpstreamClient;
let cache: ContentCache;
let purges: PurgeGeneration;
let logs: Record<string, unknown>[];

beforeAll(async () => {
  upstream = await startTestUpstream();
  client = new UpstreamClient({ ...config, url: upstream.url });
});
afterAll(async () => {
  await client.close();
  await upstream.stop();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-01T00:00:00Z') });
  upstream.mode = 'ok';
  upstream.calls.clear();
  logs = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  purges = new PurgeGeneration();
  cache = cacheOver(pino({ level: 'info' }, sink), purges);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A cache over the test content API, as each process builds its own; `shared`: the tier processes share. */
function cacheOver(log: Logger, purges: PurgeGeneration, shared?: SharedTier): ContentCache {
  const metrics = createMetrics({ defaultMetrics: false });
  // Images are not what these cases are about: none is described.
  const reader = new ContentReader({ policy: new SourcePolicy(upstream.url), describe: () => Promise.resolve(undefined), metrics, log });
  return new ContentCache({ upstream: client, reader, config, metrics, log, purges, shared });
}

const banner = apiRequestFor('banner');
const missing = apiRequestFor('newsDetail', 999_999);

/** Moves the fake clock on by `ms`. */
function later(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('content cache windows', () => {
  it('is fresh for its path’s freshness, shortened by at most a tenth', async () => {
    const first = await cache.get(banner);
    expect(first.status).toBe('MISS');
    const freshMs = first.answer.freshUntil - first.answer.storedAt;
    expect(freshMs).toBeGreaterThanOrEqual(MAX_AGE_MS * 0.9);
    expect(freshMs).toBeLessThanOrEqual(MAX_AGE_MS);
    expect(first.reuseUntil).toBe(first.answer.freshUntil);
    later(SURELY_FRESH_MS);
    expect(cache.hit(banner)?.status).toBe('HIT');
    expect((await cache.get(banner)).status).toBe('HIT');
    expect(upstream.callsTo(banner.key)).toBe(1);
  });

  it('within stale-while-revalidate: the stale answer at once, and one refresh behind it', async () => {
    const first = await cache.get(banner);
    vi.setSystemTime(first.answer.freshUntil + 1);
    expect(cache.hit(banner)).toBeUndefined();
    // The content API is slow: the stale answer does not wait for it.
    upstream.delayMs = 200;
    try {
      const [a, b] = await Promise.all([cache.get(banner), cache.get(banner)]);
      expect([a.status, b.status]).toEqual(['STALE', 'STALE']);
      expect(a.answer).toBe(first.answer);
      // A page built from it is reused for a moment only.
      expect(a.reuseUntil - Date.now()).toBeLessThanOrEqual(2_000);
      // Each look moves the fake clock on by the poll's interval (well within the new freshness).
      await expect.poll(() => cache.hit(banner), { timeout: 5_000, message: 'the background refresh' }).toBeDefined();
    } finally {
      upstream.delayMs = 0;
    }
    expect(upstream.callsTo(banner.key)).toBe(2);
    // Stored when it came back, after the first answer went stale.
    expect(cache.hit(banner)?.answer.storedAt).toBeGreaterThan(first.answer.freshUntil);
  });

  it('past stale-while-revalidate: waits for the content API, and the last good answer stands in when it fails', async () => {
    const first = await cache.get(banner);
    vi.setSystemTime(first.answer.freshUntil + SWR_S * 1000 + 1);
    upstream.mode = 'status-500';
    const stale = await cache.get(banner);
    expect(stale.status).toBe('STALE');
    expect(stale.answer.body.body.equals(first.answer.body.body)).toBe(true);
    expect(upstream.callsTo(banner.key)).toBe(2);
    expect(logs.some((l) => l.msg === 'upstream call failed' && l.kind === 'status')).toBe(true);

    // The content API is back: the next request waits for it and gets a fresh answer.
    upstream.mode = 'ok';
    later(1);
    const refreshed = await cache.get(banner);
    expect(refreshed.status).toBe('REFRESH');
    expect(refreshed.answer.freshUntil).toBeGreaterThan(Date.now());
    expect(upstream.callsTo(banner.key)).toBe(3);
  });

  it('past stale-if-error: nothing stands in, and the failure is the answer', async () => {
    const first = await cache.get(banner);
    vi.setSystemTime(first.answer.freshUntil + SIE_S * 1000 - 1);
    upstream.mode = 'status-500';
    expect((await cache.get(banner)).status).toBe('STALE');
    vi.setSystemTime(first.answer.freshUntil + SIE_S * 1000);
    const error = await failure(cache.get(banner));
    expect(isContentError(error) && [error.status, error.code]).toEqual([502, 'upstream_status']);
  });

  it('a purged answer is refetched by the next request, and still stands in when the content API fails', async () => {
    const first = await cache.get(banner);
    later(1_000);
    purges.mark();
    expect(cache.markStale(new Set(['/api/banner'])).marked).toBe(1);
    // Not served stale at once (that would be what was purged): the next request waits for the call.
    const after = await cache.get(banner);
    expect(after.status).toBe('REFRESH');
    expect(after.answer.storedAt).toBe(Date.now());
    expect(upstream.callsTo(banner.key)).toBe(2);

    later(1_000);
    purges.mark();
    expect(cache.markStale(new Set(['all'])).marked).toBe(1);
    upstream.mode = 'status-500';
    const standIn = await cache.get(banner);
    expect(standIn.status).toBe('STALE');
    expect(standIn.answer.body.body.equals(first.answer.body.body)).toBe(true);
    // An edge is told it is stale too.
    expect(standIn.answer.headers[standIn.answer.headers.indexOf('cache-control') + 1]).toMatch(/s-maxage=0,/);
  });

  it('an answer fetched before a purge and kept after it is kept stale', async () => {
    upstream.delayMs = 100;
    try {
      const pending = cache.get(banner);
      await expect.poll(() => upstream.callsTo(banner.key), { timeout: 5_000, message: 'the call to the content API' }).toBe(1);
      purges.mark();
      const result = await pending;
      expect(result.answer.purged).toBe(true);
      expect(result.answer.freshUntil).toBeLessThan(Date.now());
    } finally {
      upstream.delayMs = 0;
    }
  });

  it('a 404 is kept for its own short window, and an edge is given no stale windows for it', async () => {
    const first = await cache.get(missing);
    expect(first.answer.status).toBe(404);
    expect(first.answer.freshUntil - first.answer.storedAt).toBe(NOT_FOUND_S * 1000);
    expect(first.answer.headers).toContain(`public, max-age=0, s-maxage=${NOT_FOUND_S}`);
    later(NOT_FOUND_S * 1000 - 1);
    expect((await cache.get(missing)).status).toBe('HIT');
    later(1);
    expect((await cache.get(missing)).status).toBe('STALE');
    await expect.poll(() => upstream.callsTo(missing.key), { timeout: 5_000, message: 'the 404 asked for again' }).toBe(2);
  });
});

describe('Cache-Control', () => {
  it('lets an edge keep an answer while it is fresh, then within the windows; a browser asks every time', () => {
    expect(cacheControl(200, 42, config)).toBe(`public, max-age=0, s-maxage=42, stale-while-revalidate=${SWR_S}, stale-if-error=${SIE_S}`);
    expect(cacheControl(404, 3, config)).toBe('public, max-age=0, s-maxage=3');
  });

  it('says the freshness left in whole seconds, rounded down', async () => {
    const { answer } = await cache.get(banner);
    const header = answer.headers[answer.headers.indexOf('cache-control') + 1];
    expect(header).toContain(`s-maxage=${Math.floor((answer.freshUntil - answer.storedAt) / 1000)},`);
  });
});

describe('two processes over one shared tier', () => {
  it('a key another process stores while this one is on its way to the tier is served, not fetched again', async () => {
    const tier = new MemoryTier(1024 * 1024, 60_000);
    const firstDone = deferred();
    let asked = false;
    // The second process's view of the tier: its look-up with lock reaches the tier only once the first has stored and let go.
    const late: SharedTier = {
      available: true,
      generation: () => tier.generation(),
      put: (...args) => tier.put(...args),
      markStale: (...args) => tier.markStale(...args),
      lookOrLock: async (...args) => {
        asked = true;
        await firstDone.promise;
        return tier.lookOrLock(...args);
      },
      unlock: (...args) => tier.unlock(...args),
      waitFor: (...args) => tier.waitFor(...args),
      claimOnce: (...args) => tier.claimOnce(...args),
    };
    const quiet = pino({ level: 'silent' });
    const [first, second] = [cacheOver(quiet, new PurgeGeneration(), tier), cacheOver(quiet, new PurgeGeneration(), late)];

    const secondAnswer = second.get(banner);
    await expect.poll(() => asked, { timeout: 5_000, message: 'the second process to ask the tier' }).toBe(true);
    const firstAnswer = await first.get(banner);
    firstDone.resolve();

    expect(firstAnswer.status).toBe('MISS');
    expect((await secondAnswer).status).toBe('SHARED');
    expect((await secondAnswer).answer.body.body.equals(firstAnswer.answer.body.body)).toBe(true);
    expect(upstream.callsTo(banner.key)).toBe(1);
  });
});
