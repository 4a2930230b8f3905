/**
 * The two shared tiers keep one set of rules: Redis (a fleet, through a real redis-server) and the
 * primary's memory (one machine's workers). The same cases run against both, and against a real
 * Redis Cluster of three masters (whose scripts must name every key they touch, all in one slot):
 * answers stored and read, an answer fetched before a purge stored stale (ordered by the purge
 * generation, never by clocks), purges by tag, the fetch lock, waiting for another's fetch, and
 * claims.
 */
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTier } from '../server/fleet/memory-tier.js';
import type { RedisLink } from '../server/reliability/redis-link.js';
import { RedisTier, type TierLink } from '../server/fleet/redis-tier.js';
import type { SharedAnswer, SharedTier } from '../server/fleet/shared-tier.js';
import { startRedisCluster, type RedisCluster } from './support/redis-cluster.js';
import { startedRedisLink, startRedis, type RedisServer } from './support/redis-server.js';

const KEEP_AFTER_FRESH_MS = 60_000;
let redis: RedisServer;
let link: RedisLink;
let prefix = 0;
let cluster: RedisCluster;
let clusterClient: ReturnType<typeof createCluster>;
/** The tier's calls straight to the cluster client: what is tested here is what Redis Cluster accepts. */
const clusterLink: TierLink = { available: true, call: (_op, run) => run(clusterClient) };

beforeAll(async () => {
  redis = await startRedis();
  link = await startedRedisLink(redis);
  cluster = await startRedisCluster();
  clusterClient = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
  await clusterClient.connect();
});
afterAll(async () => {
  await link.close();
  await redis.stop();
  await clusterClient?.close();
  await cluster?.stop();
});

const tiers: [string, () => SharedTier][] = [
  // A prefix per case: the cases share one Redis.
  ['Redis', () => new RedisTier(link, KEEP_AFTER_FRESH_MS, `t${prefix++}`)],
  // A namespace per case: the cases' keys land in different slots, on different nodes.
  ['a Redis Cluster', () => new RedisTier(clusterLink, KEEP_AFTER_FRESH_MS, `t${prefix++}`)],
  ['the primary’s memory', () => new MemoryTier(16 * 1024 * 1024, KEEP_AFTER_FRESH_MS)],
];

/** What a key holds, as a reader finds it (through lookOrLock: it may take the key's lock, which no case holding an answer asks for). */
const stored = async (tier: SharedTier, key: string) => (await tier.lookOrLock(key, 5_000, Date.now()))?.answer;

/** The fetch lock of a key that holds no answer: its token, null when held, undefined when the tier cannot say. */
const lock = async (tier: SharedTier, key: string) => (await tier.lookOrLock(key, 5_000, Date.now()))?.token;

function answer(json: string, freshForMs = 60_000, status: 200 | 404 = 200): SharedAnswer {
  const storedAt = Date.now();
  return { status, json, storedAt, freshUntil: storedAt + freshForMs, etag: 'W/"1"' };
}

describe.each(tiers)('the shared tier in %s', (_name, make) => {
  it('stores an answer with its freshness and validators, and gives it back', async () => {
    const tier = make();
    const sent = answer('{"data":1}');
    expect(await tier.put('/api/a', sent, ['/api/a'], (await tier.generation())!, 0)).toBe(sent.freshUntil);
    expect(await stored(tier, '/api/a')).toEqual(sent);
    expect(await stored(tier, '/api/none')).toBeUndefined();
  });

  it('marks stale by tag only the fresh answers carrying it (a 404 is never indexed), and counts them', async () => {
    const tier = make();
    const generation = (await tier.generation())!;
    await tier.put('/api/news/1', answer('{"data":"one"}'), ['news:1', '/api/news/{id}'], generation, 0);
    await tier.put('/api/news/2', answer('{"data":"two"}'), ['news:2', '/api/news/{id}'], generation, 0);
    await tier.put('/api/news/3', answer('null', 10_000, 404), ['news:3'], generation, 0);
    const before = Date.now() - 1;
    expect(await tier.markStale(['news:1', 'news:3'], before)).toBe(1);
    // Marked purged too: stale for every reader by its own clock, whatever freshness says.
    expect(await stored(tier, '/api/news/1')).toMatchObject({ freshUntil: before, purged: true });
    expect((await stored(tier, '/api/news/2'))!.freshUntil).toBeGreaterThan(Date.now());
    expect((await stored(tier, '/api/news/2'))!.purged).toBeUndefined();
    expect((await stored(tier, '/api/news/3'))!.freshUntil).toBeGreaterThan(Date.now());
    // Already stale: not marked again.
    expect(await tier.markStale(['news:1'], before)).toBe(0);
    expect(await tier.markStale(['/api/news/{id}'], before)).toBe(1);
  });

  it('stores stale an answer whose fetch began before one of its tags was purged, by generation, not time', async () => {
    const tier = make();
    const began = (await tier.generation())!;
    await tier.markStale(['expert:4'], 0);
    // Stale, and still kept a while (KEEP_AFTER_FRESH_MS past it), so that reading it back races no expiry.
    const purgedFreshUntil = Date.now() - KEEP_AFTER_FRESH_MS / 2;
    // Whatever the clocks of the machines that fetched and purged said, the purge came after the fetch began.
    const fetched = { ...answer('{"data":4}'), storedAt: Date.now() + 60_000 };
    expect(await tier.put('/api/experts/4', fetched, ['expert:4'], began, purgedFreshUntil)).toBe(purgedFreshUntil);
    expect(await stored(tier, '/api/experts/4')).toMatchObject({ freshUntil: purgedFreshUntil, purged: true });
    // A fetch that began after the purge is stored as it is; a purge of another tag does not touch it.
    const after = (await tier.generation())!;
    expect(after).toBeGreaterThan(began);
    await tier.markStale(['expert:5'], 0);
    const later = answer('{"data":5}');
    expect(await tier.put('/api/experts/4', later, ['expert:4'], after, purgedFreshUntil)).toBe(later.freshUntil);
    expect((await stored(tier, '/api/experts/4'))!.purged).toBeUndefined();
  });

  it('gives the fetch lock of a key to one holder, which only its own token lets go', async () => {
    const tier = make();
    const token = await lock(tier, '/api/b');
    expect(token).toEqual(expect.any(String));
    expect(await lock(tier, '/api/b')).toBeNull();
    await tier.unlock('/api/b', 'not-the-token');
    expect(await lock(tier, '/api/b')).toBeNull();
    await tier.unlock('/api/b', token!);
    expect(await lock(tier, '/api/b')).toEqual(expect.any(String));
  });

  it('gives a fresh answer without taking the lock, and a stale or purged one with it', async () => {
    const tier = make();
    const fresh = answer('{"data":"fresh"}');
    await tier.put('/api/e', fresh, ['/api/e'], (await tier.generation())!, 0);
    expect(await tier.lookOrLock('/api/e', 5_000, Date.now())).toEqual({ answer: fresh });
    // By a reader's clock past its freshness: stale, and the reader is to fetch it again.
    const later = await tier.lookOrLock('/api/e', 5_000, fresh.freshUntil);
    expect(later).toEqual({ answer: fresh, token: expect.any(String) });
    expect(await tier.lookOrLock('/api/e', 5_000, fresh.freshUntil)).toEqual({ answer: fresh, token: null });
    await tier.unlock('/api/e', later!.token!);

    // Purged: stale for every reader, even one whose clock is behind the purger's.
    const before = Date.now() - 1;
    await tier.markStale(['/api/e'], before);
    const purged = await tier.lookOrLock('/api/e', 5_000, before - 60_000);
    expect(purged).toEqual({ answer: { ...fresh, freshUntil: before, purged: true }, token: expect.any(String) });
  });

  it('gives the answer a holder stored before it let go, not the lock', async () => {
    const tier = make();
    const token = await lock(tier, '/api/f');
    const stored = answer('{"data":"f"}');
    await tier.put('/api/f', stored, ['/api/f'], (await tier.generation())!, 0);
    expect(await tier.lookOrLock('/api/f', 5_000, Date.now())).toEqual({ answer: stored });
    await tier.unlock('/api/f', token!);
    expect(await tier.lookOrLock('/api/f', 5_000, Date.now())).toEqual({ answer: stored });
  });

  it('lets a waiter have the answer the lock holder stores, or nothing once the lock is let go without one', async () => {
    const tier = make();
    const token = await lock(tier, '/api/c');
    const asked = Date.now() - 1;
    const waiting = tier.waitFor('/api/c', asked, Date.now() + 3_000);
    const stored = answer('{"data":"c"}');
    await tier.put('/api/c', stored, ['/api/c'], (await tier.generation())!, 0);
    await tier.unlock('/api/c', token!);
    expect(await waiting).toEqual(stored);

    // Once that answer is stale (a reader's clock past its freshness), the next fetch holds the lock.
    const { token: again } = (await tier.lookOrLock('/api/c', 5_000, stored.freshUntil))!;
    expect(again).toEqual(expect.any(String));
    const emptyHanded = tier.waitFor('/api/c', stored.storedAt, Date.now() + 3_000);
    await tier.unlock('/api/c', again!);
    expect(await emptyHanded).toBeUndefined();
  });

  it('stops waiting at the deadline, or at once when nobody holds the lock', async () => {
    const tier = make();
    expect(await tier.waitFor('/api/d', 0, Date.now() + 3_000)).toBeUndefined();
    await lock(tier, '/api/d');
    const started = Date.now();
    expect(await tier.waitFor('/api/d', 0, started + 100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('claims a name once for everyone', async () => {
    const tier = make();
    expect(await tier.claimOnce('webhook:7', 5_000)).toBe(true);
    expect(await tier.claimOnce('webhook:7', 5_000)).toBe(false);
    expect(await tier.claimOnce('webhook:8', 5_000)).toBe(true);
  });
});
