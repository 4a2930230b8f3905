/**
 * Purges are ordered without clocks (docs/decisions/033). Two instances share Redis, their clocks
 * seconds apart (test/support/skewed-clock.ts). One fetches an answer slowly; while its call is
 * under way a purge reaches the shared tier (the purger's first step: its message to the other
 * instances is still on the way, so the fetching instance has not heard of it when it stores what
 * it fetched). Whichever clock is ahead, the answer fetched before the purge is stored stale and
 * marked purged, and nobody is served it as fresh after the purge: the next request anywhere gets
 * what was published.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { payloadFor } from '../server/embedded-api/embedded-api.js';
import type { RedisLink } from '../server/reliability/redis-link.js';
import { RedisTier } from '../server/fleet/redis-tier.js';
import { parseApiRequest } from '../server/proxy/api-request.js';
import { urlTag } from '../server/proxy/cache-tags.js';
import { startBuiltServer, type BuiltServer } from './support/built-server.js';
import { deferred } from './support/deferred.js';
import { metric } from './support/polling.js';
import { startedRedisLink, startRedis, type RedisServer } from './support/redis-server.js';

const SKEW = resolve('test/support/skewed-clock.ts');

/**
 * A content API whose banners carry the edition they were read in: what it answers is read when a
 * call arrives, and a banner is sent once `hold` (when set) settles, as a slow content API reads
 * and then sends.
 */
const api: { edition: number; bannerCalls: number; hold?: Promise<void> } = { edition: 1, bannerCalls: 0 };
let upstream: Server;
let upstreamUrl: string;
let redis: RedisServer;
/** The purger's first step, taken here on the machine's clock: the shared tier, as Purger does it. */
let link: RedisLink;
const running: BuiltServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  link = await startedRedisLink(redis);
  upstream = createServer((req, res) => {
    const request = parseApiRequest(req.url ?? '/');
    if (!('key' in request)) return void res.writeHead(404).end();
    if (request.name === 'banner') api.bannerCalls++;
    const content = { ...demoContent, banners: demoContent.banners.map((b) => ({ ...b, title: `${b.title}（第${api.edition}版）` })) };
    const body = JSON.stringify({ data: payloadFor(content, request) });
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (request.name === 'banner' && api.hold) void api.hold.then(send);
    else send();
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const server of running.splice(0)) server.kill();
});
afterAll(async () => {
  await link?.close();
  await redis?.stop();
  upstream?.closeAllConnections();
  await new Promise((done) => upstream?.close(done));
});

/**
 * An instance of the built service, its clock `skewMs` off the machine’s, sharing Redis with the
 * others. Its search index is built when first searched: this test counts the calls to the content API.
 * A Redis call may take 1 s, not the 100 ms shipped, as in fleet.test.ts: past its budget the
 * fetcher rightly keeps what it fetched without learning of the purge from Redis (the purge's
 * message, which this test holds back, is what tells it then), and a CI run busy with browser
 * suites served edition 1 so.
 */
async function instance(skewMs: number): Promise<BuiltServer> {
  const env = {
    UPSTREAM_URL: upstreamUrl,
    REDIS_URL: redis.url,
    REDIS_TIMEOUT_MS: '1000',
    WORKERS: '1',
    CLOCK_SKEW_MS: String(skewMs),
    SEARCH_INDEX: 'first-use',
  };
  const server = await startBuiltServer(env, ['--import', SKEW]);
  running.push(server);
  await vi.waitFor(async () => expect(await metric(server, 'redis_up')).toBe(1), {
    timeout: 5_000,
    message: 'the instance to reach Redis',
  });
  return server;
}

const titleOf = async (res: Response) => ((await res.json()) as { data: { title: string }[] }).data[0]!.title;

describe('an answer fetched before a purge, on instances whose clocks are seconds apart', () => {
  it.each([
    ['ahead of', 5_000],
    ['behind', -5_000],
  ])('is never stored as fresh after the purge when the fetching clock is %s the purger’s', async (_how, skewMs) => {
    await link.client.flushAll();
    api.edition = 1;
    const [fetcher, other] = await Promise.all([instance(skewMs), instance(0)]);
    // The fetcher's call reads edition 1, then is held until the purge has reached the shared tier.
    const release = deferred();
    api.hold = release.promise;
    api.bannerCalls = 0;
    const fetched = fetch(`${fetcher.url}/api/banner`);
    await expect.poll(() => api.bannerCalls, { timeout: 5_000, message: 'the fetcher’s call to the content API' }).toBe(1);
    // Published while that call is under way: edition 2, and the purge of the path in the shared tier.
    api.edition = 2;
    api.hold = undefined;
    expect(await new RedisTier(link, 60_000).markStale([urlTag('/api/banner')], Date.now() - 61_000)).toBe(0);
    release.resolve();
    // The fetcher's visitor asked before the purge, but its answer came back stored stale: it asks
    // once more, and gets what was published.
    expect(await titleOf(await fetched)).toContain('第2版');
    expect(api.bannerCalls).toBe(2);
    // Kept in Redis now: the second fetch, stamped with the fetcher's clock (seconds off this machine's).
    const stored = await link.client.hGetAll('{site}:c:/api/banner');
    expect(Number(stored.storedAt) - Date.now()).toBeGreaterThan(skewMs - 1_500);
    expect(Number(stored.storedAt) - Date.now()).toBeLessThan(skewMs + 1_500);
    expect(stored.json).toContain('第2版');
    // Anyone asking now who heard of the purge only from the shared tier gets edition 2: the other
    // instance (which holds nothing of its own) and a fresh one.
    const fresh = await instance(-skewMs);
    for (const server of [other, fresh]) {
      const res = await fetch(`${server.url}/api/banner`);
      expect(await titleOf(res), server.url).toContain('第2版');
    }
  });
});
