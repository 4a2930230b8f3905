/**
 * One content API call per key among the processes that share a tier (docs/decisions/022): a
 * process looks the key up and takes its lock in separate calls, so another process may store
 * the answer and let go of the lock between the two. Two caches over one machine tier, the second
 * one's lock held back until the first has fetched, stored and let go: the second still makes no
 * call of its own.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTier } from '../server/fleet/memory-tier.js';
import { PurgeGeneration } from '../server/fleet/purge-generation.js';
import type { SharedTier } from '../server/fleet/shared-tier.js';
import { SourcePolicy } from '../server/media/media-address.js';
import { createMetrics } from '../server/observability/metrics.js';
import { apiRequestFor } from '../server/proxy/api-request.js';
import { ContentCache } from '../server/proxy/content-cache.js';
import { ContentReader } from '../server/proxy/content-reader.js';
import { loadConfig } from '../server/settings/config.js';
import { UpstreamClient } from '../server/upstream/upstream-client.js';
import { deferred } from './support/deferred.js';
import { until } from './support/polling.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const config = loadConfig({});
let upstream: TestUpstream;
let client: UpstreamClient;

beforeAll(async () => {
  upstream = await startTestUpstream();
  client = new UpstreamClient({ ...config, url: upstream.url });
});
afterAll(async () => {
  await client.close();
  await upstream.stop();
});

function cacheOver(shared: SharedTier): ContentCache {
  const metrics = createMetrics({ defaultMetrics: false });
  const log = pino({ level: 'silent' });
  const reader = new ContentReader({ policy: new SourcePolicy(upstream.url), describe: () => Promise.resolve(undefined), metrics, log });
  return new ContentCache({ upstream: client, reader, config, metrics, log, shared, purges: new PurgeGeneration() });
}

describe('two processes over one shared tier', () => {
  it('a key stored and let go of between one’s look-up and its lock is not fetched again', async () => {
    const tier = new MemoryTier(1024 * 1024, 60_000);
    const firstDone = deferred();
    let looked = false;
    // The second process's view of the tier: its look-up goes through at once, its lock only once the first has finished.
    const late: SharedTier = {
      available: true,
      get: (key) => {
        looked = true;
        return tier.get(key);
      },
      generation: () => tier.generation(),
      put: (...args) => tier.put(...args),
      markStale: (...args) => tier.markStale(...args),
      lock: async (key, ttlMs) => {
        await firstDone.promise;
        return tier.lock(key, ttlMs);
      },
      unlock: (...args) => tier.unlock(...args),
      waitFor: (...args) => tier.waitFor(...args),
      claimOnce: (...args) => tier.claimOnce(...args),
    };
    const [first, second] = [cacheOver(tier), cacheOver(late)];
    const banner = apiRequestFor('banner');

    const secondAnswer = second.get(banner);
    await until(() => looked, 'the second process to look the key up');
    const firstAnswer = await first.get(banner);
    firstDone.resolve();

    expect(firstAnswer.status).toBe('MISS');
    expect((await secondAnswer).status).toBe('SHARED');
    expect((await secondAnswer).answer.body.body.equals(firstAnswer.answer.body.body)).toBe(true);
    expect(upstream.callsTo(banner.key)).toBe(1);
  });
});
